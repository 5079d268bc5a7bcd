package org.examsuite.demo.drill;

import java.util.regex.Pattern;

/** A replica's JSON log line of level ERROR, cut to "message: cause type: cause message" for the fault table. */
final class LastError {
    private static final Pattern CAUSED = Pattern.compile(
            ".*\"message\":\"([^\"]*)\".*\"causedBy\":\\{\"exception\":\\{\"refId\":[0-9]+,\"exceptionType\":\"([^\"]*)\",\"message\":\"([^\"]{0,200}).*");

    private LastError() {
    }

    static String summarise(String line) {
        String cut = line.length() > 2000 ? line.substring(0, 2000) : line;
        String summary = CAUSED.matcher(cut).replaceFirst("$1: $2: $3");
        int escapedNewline = summary.indexOf("\\n");
        if (escapedNewline >= 0) {
            summary = summary.substring(0, escapedNewline);
        }
        summary = summary.replace('\t', ' ');
        return summary.length() > 400 ? summary.substring(0, 400) : summary;
    }
}

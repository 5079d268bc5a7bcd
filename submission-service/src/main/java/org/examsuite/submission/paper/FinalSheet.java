package org.examsuite.submission.paper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.examsuite.common.answers.ReviewFlags;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * The client's final sheet {@code {"sessionId", "answers": {questionId: {"value", "version"}}}}
 * (docs/api.md §3.4), read from the raw body so that every limit is checked before anything
 * is stored: body size, number of answers, size of each value, id shapes, version range. The
 * draft's reserved review-flags entry may come with it (a client sends its whole sheet); it is
 * checked for shape and left out.
 */
public record FinalSheet(String sessionId, Map<String, Answer> answers, String canonicalBody) {
    /** Versions are integers in [1, 2^53): exact in every JSON implementation. */
    public static final long MAX_VERSION = (1L << 53) - 1;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    public record Answer(JsonNode value, long version) {
    }

    public record Limits(int maxBodyBytes, int maxAnswers, int maxValueBytes) {
    }

    /** The sheet's values by question id. */
    public Map<String, JsonNode> values() {
        Map<String, JsonNode> values = new java.util.LinkedHashMap<>();
        answers.forEach((question, answer) -> values.put(question, answer.value()));
        return values;
    }

    public static FinalSheet parse(ObjectMapper json, String body, Limits limits) {
        if (body == null || body.isBlank()) {
            throw ApiException.badRequest(ProblemCode.MALFORMED_JSON, "The request body is empty.");
        }
        if (body.length() > limits.maxBodyBytes()) {
            throw ApiException.tooLarge("The final sheet is larger than " + limits.maxBodyBytes() + " bytes.");
        }
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest(ProblemCode.MALFORMED_JSON, "The request body is not valid JSON.");
        }
        if (root == null || !root.isObject()) {
            throw invalid("", "The body must be a JSON object {sessionId, answers}.");
        }
        Iterator<String> names = root.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!name.equals("sessionId") && !name.equals("answers")) {
                throw invalid(name, "Unknown field '" + name + "'.");
            }
        }
        JsonNode sessionId = root.get("sessionId");
        if (sessionId == null || !sessionId.isTextual() || !ID.matcher(sessionId.asText()).matches()) {
            throw invalid("sessionId", "sessionId must be a session id string.");
        }
        JsonNode answersNode = root.get("answers");
        if (answersNode == null || !answersNode.isObject()) {
            throw invalid("answers", "answers must be an object {questionId: {value, version}}.");
        }
        if (answersNode.size() - (answersNode.has(ReviewFlags.ENTRY_ID) ? 1 : 0) > limits.maxAnswers()) {
            throw ApiException.tooLarge("At most " + limits.maxAnswers() + " answers per sheet.");
        }
        Map<String, Answer> answers = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = answersNode.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String questionId = field.getKey();
            String at = "answers." + questionId;
            boolean reviewFlags = questionId.equals(ReviewFlags.ENTRY_ID);
            if (!reviewFlags && !ID.matcher(questionId).matches()) {
                throw invalid("answers", "Question ids are 1 to 128 characters of letters, digits and ._:-");
            }
            JsonNode answer = field.getValue();
            if (!answer.isObject() || !answer.has("value") || !answer.has("version") || answer.size() != 2) {
                throw invalid(at, "Each answer is {value, version}.");
            }
            long version = version(answer.get("version"), at + ".version");
            JsonNode value = answer.get("value");
            if (!isAnswerValue(value)) {
                throw invalid(at + ".value", "A value is null, a boolean, a number, a string or an array of strings.");
            }
            if (value.toString().length() > limits.maxValueBytes()) {
                throw ApiException.tooLarge("The value of " + questionId + " is larger than " + limits.maxValueBytes() + " bytes.");
            }
            if (!reviewFlags) { // the candidate's review flags are accepted and never part of a paper
                answers.put(questionId, new Answer(value, version));
            }
        }
        String canonical;
        try {
            canonical = org.examsuite.submission.paper.Canonical.json(body);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(ProblemCode.MALFORMED_JSON, "The request body is not valid JSON.");
        }
        return new FinalSheet(sessionId.asText(), answers, canonical);
    }

    /**
     * A version: a JSON number that is an integer in [1, 2^53). JSON has one number type, so 3.0
     * and 3e0 are the version 3 (and canonicalize to 3, RFC 8785); 1.5 is not a version. A number
     * Jackson reads as a double is compared as that double, as the canonical form reads it; one
     * past the double range ({@code 1e400}) is read as infinite, which has no decimal value and
     * is no version (./exam fuzz found it answered 500).
     */
    private static long version(JsonNode version, String field) {
        if (version == null || !version.isNumber()) {
            throw invalidVersion(field);
        }
        java.math.BigDecimal exact;
        if (version.isIntegralNumber() || version.isBigDecimal()) {
            exact = version.decimalValue();
        } else {
            double d = version.doubleValue();
            if (!Double.isFinite(d)) {
                throw invalidVersion(field);
            }
            exact = new java.math.BigDecimal(d);
        }
        // The range first: stripping the zeros of a number with a huge exponent is not free.
        if (exact.signum() <= 0 || exact.compareTo(java.math.BigDecimal.valueOf(MAX_VERSION)) > 0
                || exact.stripTrailingZeros().scale() > 0) {
            throw invalidVersion(field);
        }
        return exact.longValueExact();
    }

    private static ApiException invalidVersion(String field) {
        return invalid(field, "version must be an integer in [1, 2^53).");
    }

    /** SINGLE/FILL/ESSAY strings, MULTIPLE arrays of strings, TRUE_FALSE booleans, NUMERIC numbers, null clears. */
    private static boolean isAnswerValue(JsonNode value) {
        if (value.isNull() || value.isBoolean() || value.isTextual()) {
            return true;
        }
        if (value.isNumber()) {
            return Double.isFinite(value.asDouble());
        }
        if (value.isArray()) {
            for (JsonNode item : value) {
                if (!item.isTextual()) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    private static ApiException invalid(String field, String detail) {
        return new ApiException(400, ProblemCode.INVALID_FIELD, detail).with("field", field);
    }
}

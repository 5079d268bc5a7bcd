package org.examsuite.session.exam.content;

import java.util.Set;

/**
 * What a figure's bytes are, checked against the type they were sent as (docs/limits.md): a PNG or a JPEG whose
 * header names at most {@value #MAX_SIDE} pixels a side — a small file can declare a huge image that the candidate's
 * browser would have to decode — or an SVG, sanitised ({@link SvgSanitizer}). The bytes are never decoded here.
 */
public final class FigureContent {
    public static final String PNG = "image/png";
    public static final String JPEG = "image/jpeg";
    public static final String SVG = "image/svg+xml";
    public static final Set<String> TYPES = Set.of(PNG, JPEG, SVG);
    public static final int MAX_BYTES = 1_048_576;
    public static final int MAX_SVG_BYTES = 524_288;
    public static final int MAX_SIDE = 4096;

    /** The bytes to store (an SVG's sanitised), the image's size in pixels when known, and what sanitising removed. */
    public record Checked(String mediaType, byte[] bytes, Integer width, Integer height, Set<String> removed) {
    }

    /** Why the bytes are not a figure of their type: the message is the client's. */
    public static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    private FigureContent() {
    }

    /** BYTES as a figure of MEDIA_TYPE (one of {@link #TYPES}). */
    public static Checked check(String mediaType, byte[] bytes) throws Refused {
        return switch (mediaType) {
            case PNG -> png(bytes);
            case JPEG -> jpeg(bytes);
            case SVG -> svg(bytes);
            default -> throw new Refused("a figure is a PNG, a JPEG or an SVG image");
        };
    }

    private static Checked png(byte[] b) throws Refused {
        byte[] signature = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        if (b.length < 33 || !startsWith(b, signature) || b[12] != 'I' || b[13] != 'H' || b[14] != 'D' || b[15] != 'R') {
            throw new Refused("the bytes are not a PNG image (no PNG signature and header)");
        }
        return sized(PNG, b, int32(b, 16), int32(b, 20));
    }

    /** The frame size from the first SOFn segment; markers walked by their lengths, never past the end. */
    private static Checked jpeg(byte[] b) throws Refused {
        if (b.length < 4 || (b[0] & 0xff) != 0xff || (b[1] & 0xff) != 0xd8) {
            throw new Refused("the bytes are not a JPEG image (no start-of-image marker)");
        }
        int at = 2;
        while (at + 4 <= b.length) {
            if ((b[at] & 0xff) != 0xff) {
                break;
            }
            int marker = b[at + 1] & 0xff;
            if (marker == 0xff) {
                at++; // fill byte
                continue;
            }
            if (marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
                at += 2; // no length
                continue;
            }
            int length = ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
            boolean frame = marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc;
            if (frame) {
                if (at + 9 > b.length) {
                    break;
                }
                int height = ((b[at + 5] & 0xff) << 8) | (b[at + 6] & 0xff);
                int width = ((b[at + 7] & 0xff) << 8) | (b[at + 8] & 0xff);
                return sized(JPEG, b, width, height);
            }
            if (marker == 0xda || length < 2) {
                break; // image data before a frame header: not a JPEG this can size
            }
            at += 2 + length;
        }
        throw new Refused("the bytes are not a JPEG image (no frame header)");
    }

    private static Checked sized(String type, byte[] b, long width, long height) throws Refused {
        if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
            throw new Refused("the image is " + width + " × " + height + " pixels: each side must be 1 to " + MAX_SIDE);
        }
        return new Checked(type, b, (int) width, (int) height, Set.of());
    }

    private static Checked svg(byte[] b) throws Refused {
        if (b.length > MAX_SVG_BYTES) {
            throw new Refused("an SVG figure may have at most " + MAX_SVG_BYTES + " bytes");
        }
        try {
            SvgSanitizer.Sanitized clean = SvgSanitizer.sanitize(b);
            return new Checked(SVG, clean.svg(), pixels(clean.width()), pixels(clean.height()), clean.removed());
        } catch (SvgSanitizer.NotSvg e) {
            throw new Refused("the bytes are not an SVG image: " + e.getMessage());
        }
    }

    /** An SVG's width or height when it is a plain number of pixels, else null. */
    private static Integer pixels(String value) {
        String v = value == null ? "" : value.trim().replaceFirst("px$", "");
        if (!v.matches("[0-9]{1,5}(\\.[0-9]+)?")) {
            return null;
        }
        return (int) Math.round(Double.parseDouble(v));
    }

    private static boolean startsWith(byte[] b, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (b[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static long int32(byte[] b, int at) {
        return ((long) (b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
    }
}

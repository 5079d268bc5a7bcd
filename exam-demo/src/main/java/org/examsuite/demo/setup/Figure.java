package org.examsuite.demo.setup;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * The demo exam's figure: a PNG of two pairs of dots for "2+2?", encoded here (signature, IHDR, one IDAT, IEND) so
 * the demo needs neither an image file nor AWT. A PNG is stored as sent, so its figure id is the SHA-256 of these bytes.
 */
final class Figure {
    static final String ALT = "two dots, a plus sign, two dots";
    private static final int WIDTH = 160;
    private static final int HEIGHT = 40;

    private Figure() {
    }

    static byte[] png() {
        byte[] raw = new byte[HEIGHT * (1 + WIDTH)]; // each row: filter type 0, then one grey byte a pixel
        for (int y = 0; y < HEIGHT; y++) {
            raw[y * (1 + WIDTH)] = 0;
            for (int x = 0; x < WIDTH; x++) {
                raw[y * (1 + WIDTH) + 1 + x] = (byte) (ink(x, y) ? 0x20 : 0xff);
            }
        }
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        deflater.setInput(raw);
        deflater.finish();
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        while (!deflater.finished()) {
            compressed.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        png.writeBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
        chunk(png, "IHDR", ByteBuffer.allocate(13).putInt(WIDTH).putInt(HEIGHT).put((byte) 8).put((byte) 0).put((byte) 0)
                .put((byte) 0).put((byte) 0).array());
        chunk(png, "IDAT", compressed.toByteArray());
        chunk(png, "IEND", new byte[0]);
        return png.toByteArray();
    }

    /** Dots at x = 20, 44 and 116, 140; a plus sign at x = 80. */
    private static boolean ink(int x, int y) {
        for (int cx : new int[] {20, 44, 116, 140}) {
            if ((x - cx) * (x - cx) + (y - 20) * (y - 20) <= 64) {
                return true;
            }
        }
        return (Math.abs(x - 80) <= 2 && Math.abs(y - 20) <= 10) || (Math.abs(y - 20) <= 2 && Math.abs(x - 80) <= 10);
    }

    private static void chunk(ByteArrayOutputStream out, String type, byte[] data) {
        byte[] name = type.getBytes(StandardCharsets.US_ASCII);
        CRC32 crc = new CRC32();
        crc.update(name);
        crc.update(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
        out.writeBytes(name);
        out.writeBytes(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    static String id(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

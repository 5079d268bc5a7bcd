package org.examsuite.session.enrollment;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Locale;

/**
 * Access codes: 12 symbols from a 32-letter alphabet without look-alikes (60 random bits,
 * docs/api.md §3.1), shown as {@code ABCD-EFGH-JKMN}. Stored as SHA-256 over a
 * per-candidate salt and the code: a slow password hash is not needed for 60 random bits
 * (2^60 guesses per candidate), and a hall of candidates starting at once stays cheap.
 */
public final class AccessCodes {
    private static final char[] ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ0123456789".toCharArray();
    private static final int LENGTH = 12;
    private static final int SALT_BYTES = 16;

    private final SecureRandom random = new SecureRandom();

    String newCode() {
        StringBuilder code = new StringBuilder(LENGTH + 2);
        for (int i = 0; i < LENGTH; i++) {
            if (i > 0 && i % 4 == 0) {
                code.append('-');
            }
            code.append(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return code.toString();
    }

    byte[] newSalt() {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        return salt;
    }

    public static byte[] hash(byte[] salt, String code) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(salt);
            sha.update(normalise(code).getBytes(StandardCharsets.UTF_8));
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Constant time, so the answer's timing says nothing about how close a guess was. */
    public static boolean matches(byte[] salt, byte[] expectedHash, String code) {
        return MessageDigest.isEqual(hash(salt, code), expectedHash);
    }

    /** Codes are typed by people: case, dashes and spaces do not matter. */
    static String normalise(String code) {
        return code.replaceAll("[\\s-]", "").toUpperCase(Locale.ROOT);
    }
}

package org.examsuite.common.problem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Utf8} agrees with the JDK's strict decoder on every input; the JDK is the reference. */
class Utf8Test {

    private static boolean jdk(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @Test
    void agreesWithTheJdksStrictDecoderOnRandomBytes() {
        SplittableRandom random = new SplittableRandom(20261202);
        for (int n = 0; n < 200_000; n++) {
            byte[] bytes = new byte[random.nextInt(1, 7)];
            for (int i = 0; i < bytes.length; i++) {
                // Mostly bytes around the lead and continuation ranges, where the edge cases are.
                bytes[i] = (byte) (random.nextBoolean() ? random.nextInt(0x80, 0x100) : random.nextInt(0, 0x100));
            }
            assertEquals(jdk(bytes), Utf8.isValid(bytes), () -> java.util.HexFormat.of().formatHex(bytes));
        }
    }

    @Test
    void refusesOverlongSurrogatesAndPastTheLastCodePoint() {
        for (String hex : new String[] {"c0af", "e080af", "f08080af", "eda080", "edbfbf", "f4908080", "f5808080", "80", "c3", "e282"}) {
            assertFalse(Utf8.isValid(java.util.HexFormat.of().parseHex(hex)), hex);
        }
        assertEquals(true, Utf8.isValid("caf\u00e9 \ud83d\ude00 \uffff \u0800".getBytes(StandardCharsets.UTF_8)));
    }
}

package org.examsuite.answer.redis;

import java.nio.charset.StandardCharsets;

/** The Redis Cluster hash slot of a key (CRC16/XMODEM of its hash tag, modulo 16384), as Redis computes it. */
public final class RedisSlots {
    public static final int COUNT = 16384;
    private RedisSlots() {
    }

    public static int of(String key) {
        int open = key.indexOf('{');
        if (open >= 0) {
            int close = key.indexOf('}', open + 1);
            if (close > open + 1) {
                key = key.substring(open + 1, close);
            }
        }
        int crc = 0;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) { // bitwise: no table to build at class init
            crc ^= (b & 0xFF) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            crc &= 0xFFFF;
        }
        return crc & (COUNT - 1);
    }
}

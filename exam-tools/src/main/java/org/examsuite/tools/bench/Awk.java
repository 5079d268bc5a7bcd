package org.examsuite.tools.bench;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers as the awk programs of ./exam bench read and wrote them, so the tables come out digit for
 * digit the same: a string's leading number, C's printf rounding (of the exact binary value, ties to
 * even) and awk's own number-to-string conversion (%.6g unless the value is integral).
 */
final class Awk {
    private static final Pattern LEADING_NUMBER = Pattern.compile("^[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private Awk() {
    }

    /** {@code s + 0} in awk: the number S starts with (after blanks), 0 when it starts with none. */
    static double number(String s) {
        Matcher m = LEADING_NUMBER.matcher(s.stripLeading());
        return m.find() ? Double.parseDouble(m.group()) : 0;
    }

    /** A number as awk prints it with {@code print} or {@code "%s"}: integral as such, else %.6g. */
    static double asPrinted(double x) {
        if (x == Math.rint(x) || Double.isNaN(x) || Double.isInfinite(x)) {
            return x;
        }
        return new BigDecimal(x).round(new MathContext(6, RoundingMode.HALF_EVEN)).doubleValue();
    }

    /** The string awk makes of a number (concatenation, {@code "%s"}): integral as such, else %.6g. */
    static String str(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e16 ? Long.toString((long) x) : general(x, 6);
    }

    /** printf("%.Nf", x). */
    static String fixed(double x, int decimals) {
        return new BigDecimal(x).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** printf("%.Pg", x): P significant digits, trailing zeros dropped, exponent form outside 1e-4..1eP. */
    static String general(double x, int precision) {
        if (x == 0) {
            return "0";
        }
        BigDecimal rounded = new BigDecimal(x).round(new MathContext(precision, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= precision) {
            BigDecimal mantissa = rounded.movePointLeft(exponent).stripTrailingZeros();
            String digits = mantissa.scale() <= 0 ? mantissa.toBigInteger().toString() : mantissa.toPlainString();
            return digits + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
        }
        BigDecimal plain = rounded.setScale(Math.max(precision - 1 - exponent, 0), RoundingMode.HALF_EVEN);
        String s = plain.toPlainString();
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s;
    }

    /** printf("%d", x): truncated toward zero. */
    static long integer(double x) {
        return (long) x;
    }
}

package org.examsuite.grading.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** RFC 4180 quoting and the guard against formulas in exported cells. */
class CsvTest {
    @Test
    void plainCellsStayAsTheyAre() {
        assertEquals("paper-1", Csv.text("paper-1"));
        assertEquals("", Csv.text(null));
        assertEquals("", Csv.text(""));
        assertEquals("2.5", Csv.number(new BigDecimal("2.5")));
        assertEquals("", Csv.number(null));
    }

    @Test
    void commasQuotesAndLineBreaksAreQuoted() {
        assertEquals("\"a,b\"", Csv.text("a,b"));
        assertEquals("\"say \"\"hi\"\"\"", Csv.text("say \"hi\""));
        assertEquals("\"two\nlines\"", Csv.text("two\nlines"));
        assertEquals("\"cr\rlf\"", Csv.text("cr\rlf"));
    }

    @Test
    void cellsThatWouldRunAsFormulasAreDefused() {
        assertEquals("\"'=HYPERLINK(\"\"http://x\"\")\"", Csv.text("=HYPERLINK(\"http://x\")"));
        assertEquals("\"'=1+1,2\"", Csv.text("=1+1,2"));
        assertEquals("'+1", Csv.text("+1"));
        assertEquals("'-1", Csv.text("-1"));
        assertEquals("'@SUM(A1)", Csv.text("@SUM(A1)"));
        assertEquals("'\tx", Csv.text("\tx"));
        assertEquals("\"'\rx\"", Csv.text("\rx"));
        assertEquals("a=1", Csv.text("a=1"), "only the first character matters");
    }
}

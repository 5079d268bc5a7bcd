package org.examsuite.grading.scoring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** What a paper chose, as option indices of the exam: the item statistics' option counts. */
class ChoicesTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void choicesAreIndicesIntoTheExamsOptions() throws Exception {
        ExamKey exam = ExamKey.parse(JSON.readTree("""
                {"examId":"e","keyRevision":1,"questions":[
                 {"id":"s","type":"SINGLE","options":["3","4"],"key":"4"},
                 {"id":"m","type":"MULTIPLE","options":["a","b","c"],"key":["a","c"]},
                 {"id":"t","type":"TRUE_FALSE","key":true},
                 {"id":"f","type":"TRUE_FALSE","key":true},
                 {"id":"x","type":"SINGLE","options":["p","q"],"key":"p"},
                 {"id":"u","type":"SINGLE","options":["p","q"],"key":"p"},
                 {"id":"n","type":"NUMERIC","key":3}]}"""));
        String answers = """
                {"s":{"value":"4"},"m":{"value":["c","a","c","zz"]},"t":{"value":true},"f":{"value":false},
                 "x":{"value":"not an option"},"n":{"value":3}}""";
        assertEquals("{\"s\":[1],\"m\":[0,2],\"t\":[0],\"f\":[1]}", Choices.of(exam, JSON.readTree(answers)).toString());
        assertEquals("{}", Choices.of(exam, null).toString());
    }
}

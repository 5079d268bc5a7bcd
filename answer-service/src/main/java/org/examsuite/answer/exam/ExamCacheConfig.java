package org.examsuite.answer.exam;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code exam.answer.exam-cache.*}: the exams' questions kept in memory ({@link ExamQuestions}). */
@ConfigMapping(prefix = "exam.answer.exam-cache")
public interface ExamCacheConfig {
    @WithDefault("1000")
    int maxExams();
}

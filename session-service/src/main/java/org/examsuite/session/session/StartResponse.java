package org.examsuite.session.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;
import org.examsuite.session.exam.Question.CandidateQuestion;

/** 201 (new) / 200 (resumed): the token, the time, and the paper without keys. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StartResponse(String sessionId, String examId, String candidateId, String token, Instant tokenExpiresAt,
        int deviceEpoch, Instant deadline, int graceSeconds, Instant serverTime, long remainingMs, String status,
        String paperId, Paper paper) {

    public record Paper(String title, List<CandidateQuestion> questions) {
    }
}

package org.examsuite.submission.auth;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** A candidate's retries are not verified again, and nothing gets through because of the cache. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class VerifiedTokensTest extends SubmissionTestBase {
    @Inject
    VerifiedTokens tokens;

    @Test
    void aRetriedSubmissionIsServedFromTheCacheAndStillChecked() {
        Session s = session();
        Session other = session();
        String token = s.token();
        String body = sheet(s.id(), "q1", "\"a\"", 1);
        String paperId = submit(token, "k-1", body).statusCode(201).extract().path("paperId");
        assertTrue(tokens.contains(token));
        long hits = tokens.hits();

        submit(token, "k-1", body).statusCode(201).header("Idempotent-Replayed", equalTo("true")).body("paperId", equalTo(paperId));
        // A cached token still speaks only for its own session.
        submit(token, "k-2", sheet(other.id(), "q1", "\"a\"", 1)).statusCode(403);
        assertEquals(hits + 2, tokens.hits(), "served from the cache, ahead of the OIDC verifier");

        // A tampered copy is verified in full, and refused.
        int dot = token.lastIndexOf('.');
        char first = token.charAt(dot + 1);
        String tampered = token.substring(0, dot + 1) + (first == 'A' ? 'B' : 'A') + token.substring(dot + 2);
        submit(tampered, "k-1", body).statusCode(401);
    }
}

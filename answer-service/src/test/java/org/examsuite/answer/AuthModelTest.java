package org.examsuite.answer;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.testing.TestKeys;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/** The three-token model of docs/api.md §4 as every service applies it (shared library). */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
class AuthModelTest {
    private static final String SESSION = "s-1";

    private static String candidate() {
        return TestTokens.candidate(SESSION, "e-1", "c-1", 1);
    }

    @Test
    void candidateReachesOwnSessionOnly() {
        given().auth().oauth2(candidate()).get("/api/v1/auth-probe/" + SESSION).then().statusCode(200).body("candidate", equalTo(true));
        given().auth().oauth2(candidate()).get("/api/v1/auth-probe/s-2").then().statusCode(403)
                .contentType("application/problem+json").body("code", equalTo("FORBIDDEN"));
    }

    @Test
    void operatorReachesAnySession() {
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/auth-probe/s-9").then().statusCode(200).body("operator", equalTo(true));
    }

    @Test
    void missingOrBadTokensAre401ProblemJson() {
        for (String token : new String[] {TestTokens.garbage(), TestTokens.unsignedOperator(), TestTokens.strangerOperator(),
                TestTokens.wrongIssuerOperator(), TestTokens.expiredCandidate(SESSION, "e-1", "c-1", 1),
                TestTokens.wrongAudienceCandidate(SESSION, "e-1", "c-1"), TestTokens.serviceSignedWithCandidateKey()}) {
            given().auth().oauth2(token).get("/api/v1/auth-probe/" + SESSION).then().statusCode(401)
                    .contentType("application/problem+json").body("code", equalTo("UNAUTHORIZED"));
        }
        given().get("/api/v1/auth-probe/" + SESSION).then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void forgedCandidateTokensAre401ProblemJson() {
        List<String> forged = new ArrayList<>(TestTokens.otherAlgorithmCandidates(SESSION, "e-1", "c-1", 1));
        forged.add(TestTokens.unsignedCandidate(SESSION, "e-1", "c-1", 1));
        forged.add(TestTokens.strangerCandidate(SESSION, "e-1", "c-1", 1));
        forged.add(TestTokens.hmacCandidateWithPublicKey(SESSION, "e-1", "c-1", 1));
        for (String token : forged) {
            given().auth().oauth2(token).get("/api/v1/auth-probe/" + SESSION).then().statusCode(401)
                    .contentType("application/problem+json").body("code", equalTo("UNAUTHORIZED"));
        }
    }

    @Test
    void internalIsForServiceTokensOnly() {
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).get("/internal/v1/auth-probe").then().statusCode(200).body("service", equalTo(true));
        given().auth().oauth2(candidate()).get("/internal/v1/auth-probe").then().statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.operator()).get("/internal/v1/auth-probe").then().statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.operatorClaimingService()).get("/internal/v1/auth-probe").then().statusCode(403);
        given().get("/internal/v1/auth-probe").then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void wrongMethodIs405ProblemJson() {
        given().auth().oauth2(TestTokens.operator()).delete("/api/v1/auth-probe/s-9").then().statusCode(405)
                .contentType("application/problem+json").body("code", equalTo("METHOD_NOT_ALLOWED"));
    }
}

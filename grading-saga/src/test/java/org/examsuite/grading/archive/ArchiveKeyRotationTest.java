package org.examsuite.grading.archive;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.common.auth.KeySet;
import org.examsuite.common.auth.Pem;
import org.examsuite.grading.Fixture;
import org.examsuite.grading.StubServices;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/**
 * The archive key mid-rotation (docs/operations.md, "Rotate keys"): grading-saga signs heads with the new key and
 * names it, and publishes the old key beside it, so a head anchored before the rotation still verifies by its keyId.
 */
@QuarkusTest
@TestProfile(ArchiveKeyRotationTest.Rotated.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
class ArchiveKeyRotationTest {
    static final KeyPair NEW = Pem.generateRsa();

    /** Step 2 of the rotation: the old and the new public key published, the new private key signing. */
    public static class Rotated implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("exam.archive.signing.private-key", Pem.encodePrivate(NEW.getPrivate()),
                    "exam.archive.signing.public-key", Pem.encodePublic(TestKeys.ARCHIVE.getPublic()) + "\n" + Pem.encodePublic(NEW.getPublic()));
        }
    }

    @Inject
    ArchiveStore archive;

    @Test
    void newHeadsAreSignedWithTheNewKeyAndHeadsOfTheOldKeyStillVerifyByTheirKeyId() throws Exception {
        // a head as the old key signed it before the rotation, anchored somewhere
        String anchoredText = "41:" + "ab".repeat(32);
        String anchoredSignature = sign(TestKeys.ARCHIVE.getPrivate(), anchoredText);
        String anchoredKeyId = KeySet.keyId(TestKeys.ARCHIVE.getPublic());

        archive.append("rotation-" + UUID.randomUUID(), "RESULT", 1, Fixture.MAPPER.createObjectNode());
        JsonPath head = given().auth().oauth2(TestTokens.operator()).get("/api/v1/archive/head").then().statusCode(200)
                .extract().jsonPath();
        assertEquals(KeySet.keyId(NEW.getPublic()), head.getString("keyId"), "new heads name the new key");

        JsonPath keys = given().auth().oauth2(TestTokens.operator()).get("/api/v1/archive/keys").then().statusCode(200)
                .extract().jsonPath();
        List<String> published = keys.getList("keys.keyId");
        assertEquals(List.of(anchoredKeyId, head.getString("keyId")), published, "both keys published, the old one first");
        assertTrue(verifies(Pem.publicKey(keys.getString("keys[1].publicKey")), head.getString("signedText"), head.getString("signature")),
                "the new head verifies with the key its keyId names");
        assertTrue(verifies(Pem.publicKey(keys.getString("keys[" + published.indexOf(anchoredKeyId) + "].publicKey")), anchoredText, anchoredSignature),
                "the anchored head verifies with the key its keyId names");
    }

    private static String sign(PrivateKey key, String text) throws Exception {
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(key);
        rsa.update(text.getBytes(StandardCharsets.UTF_8));
        return Base64.getEncoder().encodeToString(rsa.sign());
    }

    private static boolean verifies(PublicKey key, String text, String signature) throws Exception {
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initVerify(key);
        rsa.update(text.getBytes(StandardCharsets.UTF_8));
        return rsa.verify(Base64.getDecoder().decode(signature));
    }
}

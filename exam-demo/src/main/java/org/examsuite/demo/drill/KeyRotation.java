package org.examsuite.demo.drill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.examsuite.demo.drill.Topology.Service;

/**
 * The rolling restart rotates keys as docs/operations.md ("Rotate keys") says, so that the drill shows a rotation under
 * load refuses nobody: its first pass restarts every replica with the old and a new public key of the candidate key and
 * of each service's own key (step 1); its second pass restarts every replica with the new private keys (step 2). Step 3 (dropping the old public keys once their tokens expired) is not played: the
 * candidate tokens live 15 minutes, longer than the drill's exam. After each pass every replica is asked to take a token
 * of each old and each new key ({@link TokenProbe}); and the demo fails the run on any 401.
 */
final class KeyRotation {
    /** The services whose signing keys are rotated (every one signs its /internal calls): the second pass. */
    static final List<Service> SIGNERS = List.of(Service.values());

    private final Replicas replicas;
    private final Path oldKeys;
    private final KeyPair candidate = generate();
    private final Map<Service, KeyPair> services = new java.util.EnumMap<>(Service.class);

    /** OLD_KEYS: ./exam's key files, which the replicas started with. */
    KeyRotation(Replicas replicas, Path oldKeys) {
        this.replicas = replicas;
        this.oldKeys = oldKeys;
        SIGNERS.forEach(signer -> services.put(signer, generate()));
    }

    /** A token of each old and each new key: every replica must take all of them from step 1 on. */
    List<TokenProbe.Probe> probes() throws IOException {
        List<TokenProbe.Probe> probes = new ArrayList<>();
        probes.add(TokenProbe.candidate("candidate key (old)", privateKey(oldKeys.resolve("candidate.private.pem"))));
        probes.add(TokenProbe.candidate("candidate key (new)", candidate.getPrivate()));
        for (Service signer : SIGNERS) {
            probes.add(TokenProbe.service(signer.module + " key (old)", signer,
                    privateKey(oldKeys.resolve(signer.module + ".private.pem"))));
            probes.add(TokenProbe.service(signer.module + " key (new)", signer, services.get(signer).getPrivate()));
        }
        return probes;
    }

    private static PrivateKey privateKey(Path pem) throws IOException {
        String body = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
        } catch (GeneralSecurityException e) {
            throw new IOException(pem + " is not a PKCS#8 RSA key", e);
        }
    }

    /** Step 1's configuration: every replica verifies with the old and the new public keys. */
    void stagePublicKeys() {
        for (Service verifier : Service.values()) {
            replicas.override(verifier, "EXAM_CANDIDATE_PUBLIC_KEY",
                    replicas.sharedValue("EXAM_CANDIDATE_PUBLIC_KEY") + "," + publicBody(candidate));
            services.forEach((signer, pair) -> replicas.override(verifier, publicKeyVariable(signer),
                    replicas.sharedValue(publicKeyVariable(signer)) + "," + publicBody(pair)));
        }
    }

    /** Step 2's configuration: the signers sign with their new private keys. */
    void usePrivateKeys() {
        replicas.override(Service.SESSION, "EXAM_CANDIDATE_PRIVATE_KEY", privateBody(candidate));
        services.forEach((signer, pair) -> replicas.override(signer, "EXAM_SERVICE_PRIVATE_KEY", privateBody(pair)));
    }

    /** As ./exam names it (exam-tools Launcher.publicKeyVariable). */
    static String publicKeyVariable(Service service) {
        return "EXAM_" + service.module.toUpperCase(java.util.Locale.ROOT).replace('-', '_') + "_PUBLIC_KEY";
    }

    private static String publicBody(KeyPair pair) {
        return Base64.getEncoder().encodeToString(pair.getPublic().getEncoded());
    }

    private static String privateBody(KeyPair pair) {
        return Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded());
    }

    private static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

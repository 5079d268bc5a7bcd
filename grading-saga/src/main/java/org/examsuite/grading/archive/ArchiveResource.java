package org.examsuite.grading.archive;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import java.util.List;
import org.examsuite.common.auth.KeySet;
import org.examsuite.common.auth.Pem;
import org.examsuite.common.auth.Roles;
import org.examsuite.grading.archive.ArchiveStore.Head;
import org.examsuite.grading.archive.ArchiveVerifier.Verification;

/** The archive's head (signed, for anchoring elsewhere) and its verification. */
@Tag(name = "archive", description = "The hash-chained, signed archive (docs/api.md §3.6)")
@Path("/api/v1/archive")
@Produces(MediaType.APPLICATION_JSON)
public class ArchiveResource {
    private final ArchiveStore store;
    private final ArchiveVerifier verifier;
    private final HeadSigner signer;

    private final KeySetView keys;

    @Inject
    ArchiveResource(ArchiveStore store, ArchiveVerifier verifier, HeadSigner signer, ArchiveConfig config) {
        KeySet set = KeySet.parse(config.signing().publicKey());
        this.keys = new KeySetView(set.keyIds().stream()
                .map(id -> new PublicKeyView(id, Pem.encodePublic(set.key(id)))).toList());
        this.store = store;
        this.verifier = verifier;
        this.signer = signer;
    }

    @RegisterForReflection
    public record SignedHead(long seq, String hash, String signedText, String signature, String algorithm, String keyId) {
    }

    /** One public key of the archive's key set: its id (RFC 7638 thumbprint) and the key as PEM. */
    @RegisterForReflection
    public record PublicKeyView(String keyId, String publicKey) {
    }

    @RegisterForReflection
    public record KeySetView(List<PublicKeyView> keys) {
    }

    @GET
    @Path("/head")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
    @Operation(summary = "The archive's head, signed with the archive key")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The signed head")
    @APIResponse(responseCode = "403", description = "FORBIDDEN (a candidate token)")
    public SignedHead head() {
        Head head = store.durableHead();
        return new SignedHead(head.seq(), head.hash(), HeadSigner.signedText(head.seq(), head.hash()),
                signer.sign(head.seq(), head.hash()), "SHA256withRSA", signer.keyId());
    }

    @GET
    @Path("/keys")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
    @Operation(summary = "The archive's key set: the keys that verify signed heads, by key id")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The key set (during a rotation, the old and the new key)")
    @APIResponse(responseCode = "403", description = "FORBIDDEN (a candidate token)")
    public KeySetView keys() {
        return keys;
    }

    @GET
    @Path("/verify")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
    @Operation(summary = "Re-hash the archive's chain and name the first broken link")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The verification")
    @APIResponse(responseCode = "403", description = "FORBIDDEN (a candidate token)")
    public Verification verify() {
        return verifier.verify();
    }
}

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

    @Inject
    ArchiveResource(ArchiveStore store, ArchiveVerifier verifier, HeadSigner signer) {
        this.store = store;
        this.verifier = verifier;
        this.signer = signer;
    }

    @RegisterForReflection
    public record SignedHead(long seq, String hash, String signedText, String signature, String algorithm) {
    }

    @GET
    @Path("/head")
    @RolesAllowed({Roles.OPERATOR, Roles.SERVICE, Roles.ADMIN})
    @Operation(summary = "The archive's head, signed with the archive key")
    @SecurityRequirement(name = "operator")
    @SecurityRequirement(name = "service")
    @APIResponse(responseCode = "200", description = "The signed head")
    @APIResponse(responseCode = "403", description = "FORBIDDEN (a candidate token)")
    public SignedHead head() {
        Head head = store.durableHead();
        return new SignedHead(head.seq(), head.hash(), HeadSigner.signedText(head.seq(), head.hash()),
                signer.sign(head.seq(), head.hash()), "SHA256withRSA");
    }

    @GET
    @Path("/verify")
    @RolesAllowed({Roles.OPERATOR, Roles.SERVICE, Roles.ADMIN})
    @Operation(summary = "Re-hash the archive's chain and name the first broken link")
    @SecurityRequirement(name = "operator")
    @SecurityRequirement(name = "service")
    @APIResponse(responseCode = "200", description = "The verification")
    @APIResponse(responseCode = "403", description = "FORBIDDEN (a candidate token)")
    public Verification verify() {
        return verifier.verify();
    }
}

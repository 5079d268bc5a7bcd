package org.examsuite.submission.paper;

import java.util.UUID;

/**
 * A stored paper. {@code document} is the RFC 8785 canonical JSON of the paper without
 * {@code digest} and {@code signature} — exactly the bytes that were digested — so what we
 * serve is what was signed, and a row edited in the database no longer verifies.
 */
public record Paper(UUID paperId, String sessionId, String examId, String candidateId, String submittedBy, String document,
        String digest, String signature) {

    /** An HTTP answer carrying this paper. */
    public jakarta.ws.rs.core.Response.ResponseBuilder response(int status) {
        return jakarta.ws.rs.core.Response.status(status).type(jakarta.ws.rs.core.MediaType.APPLICATION_JSON).entity(toJson());
    }

    /** The paper as JSON: the canonical document plus its digest and signature. */
    public String toJson() {
        return document.substring(0, document.length() - 1) + ",\"digest\":\"" + digest + "\",\"signature\":\"" + signature
                + "\"}";
    }
}

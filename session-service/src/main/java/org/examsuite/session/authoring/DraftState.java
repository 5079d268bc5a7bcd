package org.examsuite.session.authoring;

/** Where a draft stands: edited, being published (frozen; a retry of publish finishes it), published (frozen). */
public enum DraftState {
    DRAFT, PUBLISHING, PUBLISHED
}

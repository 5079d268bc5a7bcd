package org.examsuite.session.announce;

import java.time.Instant;

/** One announcement to every candidate of an exam, as stored. */
public record Announcement(String announcementId, String examId, String text, String postedBy, Instant postedAt) {
}

package org.examsuite.demo.verify;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Papers per session of one exam, straight from submission-service's table {@code exam_submission.papers},
 * on a read-only connection: the last word on "exactly one paper per session", whatever the APIs say.
 */
public final class PaperCounts {
    /** submission-service's papers table (docs/ARCHITECTURE.md); tests point the driver at a table of their own. */
    public static final String TABLE = "exam_submission.papers";
    private static final java.util.regex.Pattern TABLE_NAME = java.util.regex.Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)?");

    private PaperCounts() {
    }

    public static Map<String, Integer> bySession(String jdbcUrl, String user, String password, String table, String examId)
            throws SQLException {
        if (!TABLE_NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("not a table name: " + table);
        }
        Properties properties = new Properties();
        properties.setProperty("user", user);
        if (password != null && !password.isEmpty()) {
            properties.setProperty("password", password);
        }
        properties.setProperty("readOnly", "true");
        try (Connection connection = DriverManager.getConnection(jdbcUrl, properties)) {
            connection.setReadOnly(true);
            Map<String, Integer> counts = new HashMap<>();
            try (PreparedStatement statement = connection.prepareStatement(
                    "SELECT session_id, count(*) FROM " + table + " WHERE exam_id = ? GROUP BY session_id")) {
                statement.setString(1, examId);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        counts.put(rows.getString(1), rows.getInt(2));
                    }
                }
            }
            return counts;
        }
    }
}

package org.examsuite.tools;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Creates the suite's databases when missing (schemas are each service's own Flyway job).
 * Idempotent, and safe when two runs race: "already exists" counts as success.
 */
public final class Databases {
    private static final Pattern SAFE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final String DUPLICATE_DATABASE = "42P04";

    private final String host;
    private final int port;
    private final String user;
    private final String password;

    public Databases(String host, int port, String user, String password) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
    }

    /** Returns the names it created. */
    public List<String> ensure(List<String> names) throws SQLException {
        for (String name : names) {
            if (!SAFE_NAME.matcher(name).matches()) {
                // CREATE DATABASE takes no bind parameters: only plain names are accepted.
                throw new IllegalArgumentException("not a plain database name: " + name);
            }
        }
        List<String> created = new ArrayList<>();
        try (Connection connection = connectToMaintenanceDatabase()) {
            for (String name : names) {
                if (!exists(connection, name) && create(connection, name)) {
                    created.add(name);
                }
            }
        }
        return created;
    }

    public boolean exists(String name) throws SQLException {
        try (Connection connection = connectToMaintenanceDatabase()) {
            return exists(connection, name);
        }
    }

    /** Drops a database this tool created (tests clean up after themselves with it). */
    public void drop(String name) throws SQLException {
        if (!SAFE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a plain database name: " + name);
        }
        try (Connection connection = connectToMaintenanceDatabase(); Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name);
        }
    }

    Connection connect(String database) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        if (password != null && !password.isEmpty()) {
            properties.setProperty("password", password);
        }
        properties.setProperty("connectTimeout", "10");
        String address = host.contains(":") ? "[" + host + "]" : host;
        return DriverManager.getConnection("jdbc:postgresql://" + address + ":" + port + "/" + database, properties);
    }

    private Connection connectToMaintenanceDatabase() throws SQLException {
        try {
            return connect("postgres");
        } catch (SQLException e) {
            // A cluster without the "postgres" database still has template1.
            return connect("template1");
        }
    }

    private static boolean exists(Connection connection, String name) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            query.setString(1, name);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next();
            }
        }
    }

    private static boolean create(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
            return true;
        } catch (SQLException e) {
            if (DUPLICATE_DATABASE.equals(e.getSQLState())) {
                return false; // another run created it between our check and our CREATE
            }
            throw e;
        }
    }
}

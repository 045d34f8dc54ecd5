package chatgraph;

import java.nio.file.Path;
import java.time.Duration;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;

/**
 * Starts Neo4j 5 Community with Bolt on 127.0.0.1:PORT over a throwaway home folder, with auth on
 * and the password given, prints "READY bolt://127.0.0.1:PORT" and runs until stdin closes or the
 * process is killed. Usage: TestServer HOME PORT PASSWORD
 */
public final class TestServer {
  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable error) {
      // Neo4j's own threads would keep a failed start alive: end it, so the harness hears.
      error.printStackTrace();
      System.exit(1);
    }
  }

  private static void run(String[] args) throws Exception {
    Path home = Path.of(args[0]);
    int port = Integer.parseInt(args[1]);
    String password = args[2];
    DatabaseManagementService dbms =
        new DatabaseManagementServiceBuilder(home)
            .setConfig(BoltConnector.enabled, true)
            .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
            .setConfig(HttpConnector.enabled, false)
            .setConfig(GraphDatabaseSettings.auth_enabled, true)
            .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofMinutes(5))
            .build();
    Runtime.getRuntime().addShutdownHook(new Thread(dbms::shutdown));
    // The embedded API bypasses auth: set the initial password so Bolt clients can log in.
    // On a restart over the same home it is set already (and Neo4j refuses the same again).
    boolean fresh =
        dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME)
            .executeTransactionally(
                "SHOW USERS YIELD user, passwordChangeRequired WHERE user = 'neo4j' RETURN passwordChangeRequired",
                java.util.Map.of(),
                result -> result.hasNext() && Boolean.TRUE.equals(result.next().get("passwordChangeRequired")));
    if (fresh) {
      dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME)
          .executeTransactionally(
              "ALTER USER neo4j SET PASSWORD $p CHANGE NOT REQUIRED",
              java.util.Map.of("p", password));
    }
    dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME).isAvailable(60_000);
    System.out.println("READY bolt://127.0.0.1:" + port);
    System.out.flush();
    // Ends when the parent closes our stdin (or dies), so no server outlives its tests.
    while (System.in.read() != -1) {
      // keep reading
    }
    System.exit(0);
  }
}

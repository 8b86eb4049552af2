import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.util.List;

/**
 * Serves the MongoDB wire protocol on 127.0.0.1:PORT until killed: mongo-java-server's in-memory
 * backend, for CI's MongoDB leg. It announces wire version 9 (MongoDB 4.4), the oldest the
 * official Node.js driver 7 accepts; the commands the gateway sends exist in 4.4 (see docs).
 */
public final class MongoServerMain {
  private static final MongoVersion MONGO_4_4 =
      new MongoVersion() {
        @Override
        public List<Integer> getVersionArray() {
          return List.of(4, 4, 0);
        }

        @Override
        public int getWireVersion() {
          return 9;
        }
      };

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args.length > 0 ? args[0] : "27017");
    MongoServer server = new MongoServer(new MemoryBackend().version(MONGO_4_4));
    server.bind("127.0.0.1", port);
    System.out.println("listening on 127.0.0.1:" + port);
    Thread.currentThread().join();
  }
}

#!/usr/bin/env bash
# Starts a MongoDB wire-protocol server (mongo-java-server, in memory) on 127.0.0.1 for the
# MongoDB leg of the tests. Fetches it from Maven Central once (cached in ~/.m2), compiles the
# launcher, waits until the port answers, and prints the connection URI on stdout.
# Usage: .ci/mongo-server/start.sh [port]   (stop: kill "$(cat .ci/mongo-server/target/pid)")
set -euo pipefail
cd "$(dirname "$0")"
port="${1:-27217}"
if [ ! -f target/classes/MongoServerMain.class ] || [ MongoServerMain.java -nt target/classes/MongoServerMain.class ]; then
  mvn -q -f pom.xml dependency:copy-dependencies -DoutputDirectory=target/lib >&2
  javac -cp "target/lib/*" -d target/classes MongoServerMain.java >&2
fi
java -cp "target/classes:target/lib/*" MongoServerMain "$port" >target/server.log 2>&1 &
echo $! >target/pid
for _ in $(seq 1 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "mongodb://127.0.0.1:$port/?directConnection=true"
    exit 0
  fi
  sleep 0.1
done
echo "mongo-java-server did not start: $(cat target/server.log)" >&2
exit 1

# Shared by the entry-point scripts: build a module's runnable jar when it is missing or older
# than its sources, quietly, offline first (works without network once dependencies are cached).
# (${BASH_SOURCE[0]%/*}, not dirname: a process less at every start)
ROOT="${BASH_SOURCE[0]%/*}"
[ "$ROOT" != "${BASH_SOURCE[0]}" ] || ROOT=.
ROOT="$(cd -P "$ROOT/.." && pwd -P)"

# What the build records of the checkout (the parent pom's build-info execution), for the paths
# INPUTS (relative to the root): "COMMIT clean", "COMMIT modified", or "unknown unknown" outside a
# git checkout whose top is this source tree.
build_state() { # build_state INPUTS...
  local prefix head status
  if [ -e "$ROOT/.git" ] && prefix="$(git -C "$ROOT" rev-parse --show-prefix 2>/dev/null)" && [ -z "$prefix" ] \
      && head="$(git -C "$ROOT" rev-parse --verify -q 'HEAD^{commit}' 2>/dev/null)" \
      && status="$(cd "$ROOT" && git status --porcelain --untracked-files=all -- "$@" 2>/dev/null)"; then
    if [ -z "$status" ]; then echo "$head clean"; else echo "$head modified"; fi
  else
    echo "unknown unknown"
  fi
}

# A module's jar records the commit it was built from (MODULE/target/build-info.properties beside
# it says the same, with the paths the jar is made of). One built from modified sources, or outside
# git, is stale once the checkout's state of those paths is another (e.g. they were committed):
# built again, it names the commit that rebuilds it (scripts/rebuild-verifier-check).
jar_record_stale() { # jar_record_stale MODULE -> status 0 when the jar's record must be renewed
  local info="$ROOT/$1/target/build-info.properties" key value commit="" tree="" inputs=""
  [ -f "$info" ] || return 0
  while IFS='=' read -r key value || [ -n "$key" ]; do # the shell's own read: no process started
    case "$key" in commit) commit="$value" ;; tree) tree="$value" ;; inputs) inputs="$value" ;; esac
  done <"$info"
  [ "$tree" = clean ] && return 1 # sources newer than the jar are caught by their times
  # shellcheck disable=SC2086 # the inputs are space-separated paths
  [ "$(build_state $inputs)" != "$commit $tree" ]
}

ensure_jar() { # ensure_jar MODULE [MODULE it embeds ...]  -> prints the jar path
  build_if_stale "$@"
  printf '%s\n' "$ROOT/$1/target/$1.jar"
}

# What every start pays before java (issue #42): scripts/produce and scripts/verify call
# build_if_stale, cds_archive_opts, producer_opts or verifier_opts and read STDERR_TTY in their own
# shell: with ROOT's, a start runs one program before java, `find`, and three subshells (strace),
# where it ran `sed`s, `cat`, `grep`, `awk`, `dirname`s and more subshells (on 2 cores each costs
# a few milliseconds of CPU, and they were about 0.1-0.2 CPU-s in all).
build_if_stale() { # build_if_stale MODULE [MODULE it embeds ...]: builds MODULE's jar if stale
  local module="$1" jar="$ROOT/$1/target/$1.jar" sources=() m newer=""
  for m in "$@"; do sources+=("$ROOT/$m/src/main" "$ROOT/$m/pom.xml"); done
  [ ! -f "$jar" ] || newer="$(find "${sources[@]}" "$ROOT/pom.xml" "$ROOT/LICENSE" "$ROOT/NOTICE" \
    -newer "$jar" -type f -print -quit 2>/dev/null)" || true # a path missing: not newer
  if [ ! -f "$jar" ] || [ -n "$newer" ] || jar_record_stale "$module"; then
    echo "building $module.jar (once) ..." >&2
    local log; log="$(mktemp)"
    if ! (cd "$ROOT" && { mvn -o -q -B -ntp -pl "$module" -am package -DskipTests >"$log" 2>&1 \
         || mvn -q -B -ntp -pl "$module" -am package -DskipTests >"$log" 2>&1; }); then
      cat "$log" >&2; rm -f "$log"
      echo "error: could not build $module.jar (see the Maven output above)" >&2
      exit 2
    fi
    rm -f "$log"
  fi
}

# Class-data sharing (issue #42): `mvn package` leaves MODULE/target/MODULE.jsa beside the jar, an
# archive of the classes a short training run of the jar loaded, already parsed and verified (the
# modules' cds-archive execution). Mapping it shortens every start. It is optional: it is used
# only when it is newer than the jar (a jar rebuilt without it runs as before), the JVM checks it
# against the jar, the JDK and itself (-XX:+VerifySharedSpaces: a checksum of its contents) and
# falls back to loading the classes from the jar on any mismatch, without a word
# (-Xlog:cds*=off: the JVM would print its warning on stdout). GAMECERT_CDS=0 turns it off.
# The archive is a static one (it holds the JDK's classes too): one the JVM refuses leaves it with
# no archive at all, not even the JDK's own, so an archive is mapped only beside the jar it was
# made for (MODULE.jsa.jar-path, written by the build): not in a checkout moved since its build.
cds_archive_opts() { # cds_archive_opts MODULE -> sets CDS_OPTS to the options that map its archive
  local jar="$ROOT/$1/target/$1.jar" archive="$ROOT/$1/target/$1.jsa" made_for=""
  CDS_OPTS=()
  [ "${GAMECERT_CDS:-1}" != 0 ] && [ -s "$archive" ] && [ "$archive" -nt "$jar" ] || return 0
  [ -f "$archive.jar-path" ] || return 0
  { read -r made_for || [ -n "$made_for" ]; } 2>/dev/null <"$archive.jar-path" || return 0
  # -ef: the same file, whatever symbolic links either path goes through
  [ -f "$made_for" ] && [ "$made_for" -ef "$jar" ] || return 0
  CDS_OPTS=(-XX:SharedArchiveFile="$archive" -Xshare:auto -XX:+VerifySharedSpaces '-Xlog:cds*=off')
}

cds_opts() { # cds_opts MODULE -> prints the JVM options that map MODULE's archive, if any
  cds_archive_opts "$1"
  [ ${#CDS_OPTS[@]} -eq 0 ] || printf '%s\n' "${CDS_OPTS[@]}"
}

# Tells the JVM whether stderr is a terminal (Java cannot ask): progress is redrawn in place with
# \r only there, and printed as occasional whole lines in a log.
STDERR_TTY=false
[ ! -t 2 ] || STDERR_TTY=true
tty_opts() {
  printf '%s\n' -Dgamecert.stderr.tty=$STDERR_TTY
}

# JVM options for the verifier, before GAMECERT_JAVA_OPTS (which can override them): the
# throughput collector (no concurrent marking competing for the cores with the checking
# threads) and transparent huge pages for the heap where the kernel offers them (fewer TLB misses
# in the random lookups of the layer tables). Measured on the 6x6 20-empties certificate:
# 5.7 s -> 4.8 s with 2 threads.
# The C1 compiler starts on a method after 1,000 calls instead of 200 (-XX:Tier3*Threshold): a
# short run compiles fewer of the methods that run only while it starts (issue #42: 0.85 -> 0.76
# CPU-s on a 4x4 certificate), and the checking loops are compiled as soon as before in long runs
# (the 6x6 16-empties certificate: the same time; the C2 compiler's thresholds are not touched).
# The young generation is capped at 512 MB (-XX:MaxNewSize): the collector's adaptive sizing
# otherwise grows it past 1 GB under the slices' short-lived arrays, and each new page of heap
# costs system time (the 6x6 20-empties certificate: 1.27x -> 1.145x 29b3b82's CPU, medians of
# ten rounds, peak RSS 1.3 -> 1.0 GB; the 180 M-entry "44" certificate no slower;
# docs/benchmarks.md, "Less memory in the engine"). Only where the default heap (a quarter of the
# memory) is at least 2 GB and GAMECERT_JAVA_OPTS sets no -Xmx: the JVM warns on stdout when the
# heap is smaller than the cap (below 768 MB).
# C1 after 1,000 calls instead of 200, for the verifier and the producer (below)
LATE_C1=(-XX:Tier3InvocationThreshold=1000 -XX:Tier3MinInvocationThreshold=500
  -XX:Tier3CompileThreshold=10000)

verifier_opts() { # sets VERIFIER_OPTS to the options above
  local key value unit mem_kb=0
  VERIFIER_OPTS=(-XX:+UseParallelGC "${LATE_C1[@]}")
  if huge_pages_offered; then VERIFIER_OPTS+=(-XX:+UseTransparentHugePages); fi
  while read -r key value unit || [ -n "$key" ]; do
    [ "$key" != MemTotal: ] || { mem_kb="$value"; break; }
  done 2>/dev/null </proc/meminfo || true
  if [[ "${mem_kb:-0}" -ge $((8 * 1024 * 1024)) && " ${GAMECERT_JAVA_OPTS:-} " != *" -Xmx"* ]]; then
    VERIFIER_OPTS+=(-XX:MaxNewSize=512m)
  fi
}

verifier_jvm_opts() { # prints them, one a line
  verifier_opts
  printf '%s\n' "${VERIFIER_OPTS[@]}"
}

# The producer's options (producer_opts sets PRODUCER_OPTS): the verifier's C1 thresholds and
# transparent huge pages (the search's table is read at random, a TLB miss a probe on small
# pages), not its collector: the throughput collector was faster still, but its old generation
# holds at most about 2/3 of the heap, and a table that G1 fits in the heap (--tt-mb 1024 in
# -Xmx1400m) ran out of memory. Figures: docs/benchmarks.md, "Start-up", fourth round.
# The C2 compiler inlines a method already compiled only when its code is under 1,000 bytes
# (-XX:InlineSmallCode, 2,500 by default): a weak certificate compiles its search, the search
# keeping its proof and the reading from the log, 175 C2 methods in 1.3 s of compiler time on FFO
# #40 against the plain search's 51 in 0.36 s, and the smaller units cost less to compile. Pairs
# of runs: FFO #40 weak 0.91x the CPU (8 pairs), #44 0.94x (5), #45 0.97x (3), the plain search
# on #44 0.88x (5), Connect Four 6x5 semi-strong 1.01x (3), 6x6 16 empties 0.99x, 4x4 0.96x; the
# verifier gained nothing (1.03x, 1.01x) and keeps the default. docs/benchmarks.md, "C2's inlining".
producer_opts() {
  PRODUCER_OPTS=("${LATE_C1[@]}" -XX:InlineSmallCode=1000)
  if huge_pages_offered; then PRODUCER_OPTS+=(-XX:+UseTransparentHugePages); fi
}

huge_pages_offered() { # status 0 when the kernel offers transparent huge pages to a JVM that asks
  local mode=""
  { read -r mode || true; } 2>/dev/null </sys/kernel/mm/transparent_hugepage/enabled || true
  case "$mode" in *'[always]'* | *'[madvise]'*) return 0 ;; esac
  return 1
}

# JVM options Spark needs on Java 17 (what Spark's own launcher adds: JavaModuleOptions), for
# scripts/spark-verify and scripts/spark-produce; the same list is the spark module's surefire
# argLine (spark/pom.xml, spark.jvm.opts).
spark_jvm_opts() {
  printf '%s\n' -XX:+IgnoreUnrecognizedVMOptions \
    --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED \
    --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
    --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
    --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
    --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED \
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.nio.cs=ALL-UNNAMED \
    --add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED \
    -Djdk.reflect.useDirectMethodHandle=false -Dio.netty.tryReflectionSetAccessible=true \
    -Dlog4j2.configurationFile="$ROOT/spark/conf/log4j2.properties" -XX:+UseParallelGC
}

# The spark module's jar (spark.jar: our code and libraries, no Spark) and the classpath to run it
# embedded in local[*] (Spark's jars from the local Maven repository, written by the build).
spark_classpath() {
  local jar; jar="$(ensure_jar spark verifier producer)"
  printf '%s:%s\n' "$jar" "$(cat "$ROOT/spark/target/spark-classpath.txt")"
}

package org.gamecert.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The Spark context the tools run in: local[*] (embedded, no cluster, no installation) unless a
 * master is given, or spark-submit set one (spark.master). Off: the web UI (no port to open) and
 * event logs; tasks are retried only on a cluster.
 */
public final class SparkSessions {
    /** System property naming the module's jar (scripts/spark-verify sets it): shipped to a cluster's executors. */
    public static final String JAR_PROPERTY = "gamecert.spark.jar";

    private SparkSessions() {}

    public static JavaSparkContext open(String master, String appName) {
        SparkConf conf = new SparkConf(true).setAppName(appName);
        if (master != null) conf.setMaster(master);
        else if (!conf.contains("spark.master")) conf.setMaster("local[*]");
        conf.setIfMissing("spark.ui.enabled", "false");
        conf.setIfMissing("spark.ui.showConsoleProgress", "false");
        // task results are the kernels' results; a composite's parts carry their region keys for
        // the union census (up to CompositeVerifier.UNION_CAP keys, 16 bytes each, in all)
        conf.setIfMissing("spark.driver.maxResultSize", "0");
        conf.setIfMissing("spark.driver.bindAddress", conf.get("spark.master").startsWith("local") ? "127.0.0.1" : "0.0.0.0");
        if (conf.get("spark.master").startsWith("local")) conf.setIfMissing("spark.driver.host", "127.0.0.1");
        String jar = System.getProperty(JAR_PROPERTY);
        if (jar != null && !conf.get("spark.master").startsWith("local") && !conf.contains("spark.jars")) conf.set("spark.jars", jar);
        JavaSparkContext sc = new JavaSparkContext(conf);
        sc.setLogLevel("WARN");
        return sc;
    }
}

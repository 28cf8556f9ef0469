package org.gamecert.spark;

import org.apache.spark.api.java.JavaSparkContext;

/** One local Spark context for a test class (started in @BeforeAll, stopped in @AfterAll). */
public final class SparkTestContext {
    private SparkTestContext() {}

    public static JavaSparkContext open(int cores) {
        System.setProperty("spark.sql.shuffle.partitions", "2");
        System.setProperty("spark.default.parallelism", Integer.toString(cores));
        return SparkSessions.open("local[" + cores + "]", "gamecert-test");
    }
}

package dev.cubed.spark;

import com.codahale.metrics.MetricRegistry;
import java.util.Properties;
import org.apache.spark.SparkConf;
import org.apache.spark.metrics.sink.MetricsServlet;
import org.sparkproject.jetty.servlet.ServletContextHandler;

/**
 * Spark's metrics servlet sink without its servlet: used (by class name, through {@code
 * spark.metrics.conf.*.sink.servlet.class}) by the contexts the spark executor starts with the web
 * UI off, where the servlet would be attached to nothing. Building it would load Spark's Jetty
 * servlet classes, which need the Servlet 5 API and fail next to libraries that bring the Servlet 6
 * API (e.g. Jetty 12). Not for direct use.
 */
public final class NoUiMetricsServlet extends MetricsServlet {
  /** Called by Spark's metrics system. */
  public NoUiMetricsServlet(Properties properties, MetricRegistry registry) {
    super(properties, registry);
  }

  /** No handlers: there is no UI to attach them to. */
  @Override
  public ServletContextHandler[] getHandlers(SparkConf conf) {
    return new ServletContextHandler[0];
  }
}

package web

import (
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus metrics, on a registry of its own (no global state).
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inflight prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "incidentlib_http_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "incidentlib_http_request_duration_seconds", Help: "Time to answer HTTP requests, by route.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "incidentlib_http_requests_in_flight", Help: "HTTP requests being answered.",
		}),
	}
	m.reg.MustRegister(m.requests, m.duration, m.inflight, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// observe logs each request with its request id and records it in the metrics. Server errors
// and slow requests are warnings.
func (s *Server) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		s.metrics.inflight.Inc()
		err := next(c)
		if err != nil {
			c.Error(err) // write the error response now so its status is logged
		}
		s.metrics.inflight.Dec()
		d := time.Since(start)
		route := c.Path()
		if route == "" || route == "/*" {
			route = "other"
		}
		status := c.Response().Status
		s.metrics.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
		s.metrics.duration.WithLabelValues(route).Observe(d.Seconds())
		// Every request, client errors and 429s included, at debug level: one client sending
		// bad requests must not flood the log. Server errors and slow answers are warnings.
		level := slog.LevelDebug
		if status >= 500 || d > time.Second && status != http.StatusRequestTimeout {
			level = slog.LevelWarn
		}
		if !s.log.Enabled(c.Request().Context(), level) {
			return nil
		}
		s.log.LogAttrs(c.Request().Context(), level, "request",
			slog.String("request_id", c.Response().Header().Get(echo.HeaderXRequestID)),
			slog.String("method", c.Request().Method),
			slog.String("path", c.Request().URL.Path),
			slog.Int("status", status),
			slog.Int64("bytes", c.Response().Size),
			slog.Duration("duration", d),
			slog.String("remote", c.RealIP()))
		return nil
	}
}

// metricsHandler serves the metrics in the Prometheus text format.
func (s *Server) metricsHandler() echo.HandlerFunc {
	return echo.WrapHandler(promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
}

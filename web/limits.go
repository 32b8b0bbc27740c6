package web

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"
)

// cors lets any origin read the API with GET: the catalog is public.
func (s *Server) cors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
		h.Set("Access-Control-Expose-Headers", "ETag, Retry-After")
		if c.Request().Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Headers", "Content-Type, If-None-Match")
			h.Set("Access-Control-Max-Age", "86400")
			return c.NoContent(http.StatusNoContent)
		}
		return next(c)
	}
}

// rateLimit limits API and MCP requests per client address; a client over its limit gets 429
// with Retry-After. Idle clients are forgotten after ten minutes.
func (s *Server) rateLimit() echo.MiddlewareFunc {
	if s.cfg.RateLimit <= 0 {
		return func(next echo.HandlerFunc) echo.HandlerFunc { return next }
	}
	burst := max(s.cfg.RateBurst, 1)
	retry := strconv.Itoa(int(math.Ceil(1 / s.cfg.RateLimit)))
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store: middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
			Rate: rate.Limit(s.cfg.RateLimit), Burst: burst, ExpiresIn: 10 * time.Minute,
		}),
		IdentifierExtractor: func(c echo.Context) (string, error) { return c.RealIP(), nil },
		DenyHandler: func(c echo.Context, _ string, _ error) error {
			c.Response().Header().Set("Retry-After", retry)
			return echo.NewHTTPError(http.StatusTooManyRequests)
		},
		ErrorHandler: func(c echo.Context, err error) error { return echo.NewHTTPError(http.StatusForbidden) },
	})
}

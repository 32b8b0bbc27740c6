package web

import (
	"bytes"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"incidentlib/views"
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

// perClient returns a check that allows each client address rate answers a second, with bursts
// of burst. A zero rate allows everything.
func perClient(perSecond float64, burst int) func(client string) bool {
	if perSecond <= 0 {
		return func(string) bool { return true }
	}
	store := middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
		Rate: rate.Limit(perSecond), Burst: max(burst, 1), ExpiresIn: 10 * time.Minute,
	})
	return func(client string) bool {
		ok, _ := store.Allow(client)
		return ok
	}
}

// allowRender reports whether the client may have one more answer rendered that is not in the
// cache. Cached answers are never limited.
func (s *Server) allowRender(c echo.Context) bool { return s.renderRate(c.RealIP()) }

// clientIP finds the client's address: the connection's, or, for a connection from a trusted
// proxy, the address that proxy forwarded. A header from anyone else is ignored, so a client
// cannot pick its own rate-limit bucket.
func clientIP(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// ParseCIDRs reads a comma-separated list of networks (a bare address is a network of one).
func ParseCIDRs(list string) ([]*net.IPNet, error) {
	var out []*net.IPNet
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			if ip := net.ParseIP(part); ip != nil && ip.To4() != nil {
				part += "/32"
			} else {
				part += "/128"
			}
		}
		_, n, err := net.ParseCIDR(part)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: expected an address or a network such as 10.0.0.0/8", part)
		}
		out = append(out, n)
	}
	return out, nil
}

// tooManyRenders answers a client over its render budget. The answer is rendered once per
// language and kept: refusing work must cost next to nothing, or refusing is the work.
func (s *Server) tooManyRenders(c echo.Context) error {
	r := c.Request()
	if strings.HasPrefix(r.URL.Path, "/api/") {
		c.Response().Header().Set("Retry-After", "1")
		return echo.NewHTTPError(http.StatusTooManyRequests)
	}
	lang := views.LocaleOf(r.Context()).Lang
	if !validLang(string(lang)) {
		lang = preferredLang(r)
	}
	v, ok := s.refusals.Load(lang)
	if !ok {
		ctx := views.WithLocale(r.Context(), &views.Locale{Lang: lang, Localizer: s.localizers[lang], Origin: s.origin(r)})
		var buf bytes.Buffer
		page := views.ErrorPage(http.StatusTooManyRequests, views.T(ctx, "error.bad_request_title"), views.T(ctx, "error.rate_limited"))
		if err := page.Render(ctx, &buf); err != nil {
			return err
		}
		v, _ = s.refusals.LoadOrStore(lang, buf.Bytes())
	}
	h := c.Response().Header()
	h.Set("Retry-After", "1")
	h.Set("Cache-Control", "no-store")
	return c.HTMLBlob(http.StatusTooManyRequests, v.([]byte))
}

package web

import (
	"bytes"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
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

// rateLimit limits API and MCP requests per client; a client over its limit gets 429 with
// Retry-After.
func (s *Server) rateLimit() echo.MiddlewareFunc {
	if s.cfg.RateLimit <= 0 {
		return func(next echo.HandlerFunc) echo.HandlerFunc { return next }
	}
	retry := strconv.Itoa(int(math.Ceil(1 / s.cfg.RateLimit)))
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store:               newClientLimits(s.cfg.RateLimit, s.cfg.RateBurst),
		IdentifierExtractor: func(c echo.Context) (string, error) { return c.RealIP(), nil },
		DenyHandler: func(c echo.Context, _ string, _ error) error {
			c.Response().Header().Set("Retry-After", retry)
			return echo.NewHTTPError(http.StatusTooManyRequests)
		},
		ErrorHandler: func(c echo.Context, err error) error { return echo.NewHTTPError(http.StatusForbidden) },
	})
}

// Bounds of the per-client buckets. A bucket left alone refills within burst/rate seconds, after
// which forgetting it changes nothing; so idle buckets go after limitsTTL, and at most
// maxLimitKeys are kept (the least recently seen go first). A flood of unique addresses then
// costs a bounded amount of memory, about 250 bytes a key, and can only cost an evicted
// client a fresh burst.
const (
	maxLimitKeys = 65536
	limitsTTL    = time.Minute
)

// clientLimits is a token bucket per client, bounded in number and age. It is echo's
// RateLimiterStore, and the render budget's.
type clientLimits struct {
	rate  rate.Limit
	burst int
	lru   *expirable.LRU[string, *rate.Limiter]
}

func newClientLimits(perSecond float64, burst int) *clientLimits {
	return &clientLimits{rate: rate.Limit(perSecond), burst: max(burst, 1),
		lru: expirable.NewLRU[string, *rate.Limiter](maxLimitKeys, nil, limitsTTL)}
}

// Allow takes a token from the client's bucket.
func (l *clientLimits) Allow(client string) (bool, error) {
	key := clientKey(client)
	b, ok := l.lru.Get(key)
	if !ok {
		b = rate.NewLimiter(l.rate, l.burst)
		l.lru.Add(key, b)
	}
	return b.Allow(), nil
}

// clientKey is the bucket of an address: an IPv4 address alone, an IPv6 address by its /64,
// the block one subscriber or one host is usually given.
func clientKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil || ip.Is4() || ip.Is4In6() {
		return addr
	}
	p, err := ip.Prefix(64)
	if err != nil {
		return addr
	}
	return p.String()
}

// perClient returns a check that allows each client rate answers a second, with bursts of
// burst. A zero rate allows everything.
func perClient(perSecond float64, burst int) func(client string) bool {
	if perSecond <= 0 {
		return func(string) bool { return true }
	}
	l := newClientLimits(perSecond, burst)
	return func(client string) bool {
		ok, _ := l.Allow(client)
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
		page := views.ErrorPage(http.StatusTooManyRequests, views.T(ctx, "error.rate_limited_title"), views.T(ctx, "error.rate_limited"), views.Link{})
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

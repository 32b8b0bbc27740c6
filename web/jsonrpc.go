package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// maxBatch is the most JSON-RPC messages one POST to /mcp may carry. A batch is one request to
// the rate limit, so a large one would let a client do many times its share of work.
const maxBatch = 8

// serveJSONRPC hands an MCP POST to the SDK's handler, with two guards the SDK lacks: batches
// over maxBatch are refused, and request ids come back exactly as sent. The SDK reads a numeric
// id as a 64-bit number, which changes 1.5, 1e20 and integers past 2^53; such ids are passed to
// it as strings and put back in the answer.
func serveJSONRPC(c echo.Context, r *http.Request, h http.Handler) error {
	if r.Method != http.MethodPost {
		h.ServeHTTP(c.Response(), r)
		return nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err // the body limit's 413
	}
	msgs, batch := splitBatch(body)
	if batch && len(msgs) > maxBatch {
		return jsonRPCError(c, http.StatusBadRequest, -32600, "too many messages in one batch: send at most "+strconv.Itoa(maxBatch))
	}
	ids := map[string]json.RawMessage{}
	for i, m := range msgs {
		msgs[i] = swapID(m, ids)
	}
	if len(ids) == 0 {
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(c.Response(), r)
		return nil
	}
	if batch {
		parts := make([][]byte, len(msgs))
		for i, m := range msgs {
			parts[i] = m
		}
		body = append(append([]byte("["), bytes.Join(parts, []byte(","))...), ']')
	} else {
		body = msgs[0]
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	h.ServeHTTP(rec, r)
	out := rec.body.Bytes()
	for placeholder, raw := range ids {
		q, _ := json.Marshal(placeholder)
		out = bytes.ReplaceAll(out, q, raw)
	}
	copyHeader(c.Response().Header(), rec.header)
	c.Response().Header().Del("Content-Length")
	return c.Blob(rec.status, rec.header.Get("Content-Type"), out)
}

// splitBatch returns the messages of a body and whether it was a batch. A body that is not
// JSON comes back whole for the SDK to refuse.
func splitBatch(body []byte) ([]json.RawMessage, bool) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var msgs []json.RawMessage
		if json.Unmarshal(trimmed, &msgs) == nil {
			return msgs, true
		}
	}
	return []json.RawMessage{body}, false
}

// swapID replaces a numeric id that a 64-bit number would not keep exactly with a placeholder
// string, and records the original.
func swapID(m json.RawMessage, ids map[string]json.RawMessage) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(m, &fields) != nil {
		return m
	}
	id, ok := fields["id"]
	if !ok || len(id) == 0 || id[0] == '"' || id[0] == 'n' || exactInt(string(id)) {
		return m
	}
	placeholder := "incidentlib-rpc-id-" + strconv.Itoa(len(ids))
	ids[placeholder] = append(json.RawMessage(nil), id...)
	q, _ := json.Marshal(placeholder)
	fields["id"] = q
	out, err := json.Marshal(fields)
	if err != nil {
		return m
	}
	return out
}

// exactInt reports whether a JSON number is an integer that float64 and int64 both hold exactly.
func exactInt(n string) bool {
	if strings.ContainsAny(n, ".eE") {
		return false
	}
	v, err := strconv.ParseInt(n, 10, 64)
	return err == nil && v <= 1<<53 && v >= -(1<<53)
}

func jsonRPCError(c echo.Context, status, code int, msg string) error {
	return c.JSON(status, map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
}

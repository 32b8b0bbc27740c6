// Command catalog validates data/ and builds the SQLite catalog the server embeds.
//
//	go run ./cmd/catalog                  # validate and write data/embedded/catalog.db
//	go run ./cmd/catalog -check           # validate only
//	go run ./cmd/catalog -data testdata -out /tmp/test.db
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"incidentlib/internal/catalog/build"
)

func main() {
	dataDir := flag.String("data", "data", "directory holding taxonomy.yaml, orgs.yaml and cases/")
	out := flag.String("out", "data/embedded/catalog.db", "database file to write")
	checkOnly := flag.Bool("check", false, "validate only; write nothing")
	flag.Parse()

	start := time.Now()
	d, err := build.Load(*dataDir)
	var ps build.Problems
	if errors.As(err, &ps) {
		for _, p := range ps {
			fmt.Fprintln(os.Stderr, p)
		}
		fmt.Fprintf(os.Stderr, "%d problems; nothing written\n", len(ps))
		os.Exit(1)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *checkOnly {
		fmt.Printf("%d cases valid\n", len(d.Cases))
		return
	}
	if err := build.Write(context.Background(), d, *out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%d cases written to %s in %s\n", len(d.Cases), *out, time.Since(start).Round(time.Millisecond))
}

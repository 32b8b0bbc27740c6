package catalog

import (
	"fmt"
	"time"
	_ "time/tzdata" // zones are read from the binary, not from the machine it runs on
)

// A case whose source gives local times names its zone (an IANA name such as Asia/Seoul), and
// its date is then the day the incident began there: the day people lived it. A case without a
// zone is dated in UTC.

// LoadZone reads a case's zone.
func LoadZone(name string) (*time.Location, error) {
	if name == "" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil || name == "Local" {
		return nil, fmt.Errorf("%q is not a time zone; expected an IANA name such as Asia/Seoul or America/Los_Angeles", name)
	}
	return loc, nil
}

// ZoneAbbrev is the zone's abbreviation on a case's date, such as KST, PST or CEST: the one in
// force at noon that day (a month or a year is read as its first day). It is the zone's name
// when the tz database gives only an offset.
func ZoneAbbrev(zone, date string) string {
	loc, err := LoadZone(zone)
	if err != nil || zone == "" {
		return "UTC"
	}
	day := date + "-01-01"[len(date)-4:]
	t, err := time.ParseInLocation("2006-01-02 15:04", day[:10]+" 12:00", loc)
	if err != nil {
		t = time.Now().In(loc)
	}
	abbr := t.Format("MST")
	if abbr != "" && (abbr[0] == '+' || abbr[0] == '-') {
		return "UTC" + abbr
	}
	return abbr
}

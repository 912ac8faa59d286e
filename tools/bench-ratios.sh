#!/usr/bin/env bash
# Reads `go test -bench` output (standard input or the files given) and
# prints, for each CLI of BenchmarkPlan, the median ns/op of each leg over
# the -count rounds and the ratios queuecap / floor (queuecap's own cost;
# the target is at most 1.10) and floor / locals (what the framework and the
# CLI cost), for data sources and functions; then the same for
# BenchmarkServer's in-process RPCs, queuecap / floor.
set -euo pipefail

awk '
function median(key,    n, i, j, t, a) {
	n = split(samples[key], a, " ")
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function ratio(x, y) { return (x == "" || y == "" || y == 0) ? "-" : sprintf("%.2f", x / y) }
function ms(key) { return (key in samples) ? sprintf("%.0f", median(key) / 1e6) : "-" }
$1 ~ /^BenchmarkPlan\/cli=/ && $4 == "ns/op" {
	split($1, p, "/"); cli = substr(p[2], 5); leg = p[3]; sub(/-[0-9]+$/, "", leg)
	if (!(cli in seen)) { seen[cli] = 1; clis[++ncli] = cli }
	samples[cli "/" leg] = samples[cli "/" leg] " " $3; count[cli "/" leg]++
}
$1 ~ /^BenchmarkServer\/rpc=/ && $4 == "ns/op" {
	split($1, p, "/"); rpc = substr(p[2], 5); who = p[3]; sub(/-[0-9]+$/, "", who)
	if (!(rpc in rseen)) { rseen[rpc] = 1; rpcs[++nrpc] = rpc }
	samples["rpc " rpc "/" who] = samples["rpc " rpc "/" who] " " $3
}
END {
	if (ncli) {
		printf "%-18s %6s %9s %9s %9s %9s %9s   %-14s %-14s %-14s %-14s\n", "plan (median ms)", "rounds", "q-ds", "floor-ds", "q-fn", "floor-fn", "locals", "ds q/floor", "ds floor/loc", "fn q/floor", "fn floor/loc"
		for (i = 1; i <= ncli; i++) {
			c = clis[i]
			qd = (c "/queuecap-data-sources" in samples) ? median(c "/queuecap-data-sources") : ""
			fd = (c "/floor-data-sources" in samples) ? median(c "/floor-data-sources") : ""
			qf = (c "/queuecap-functions" in samples) ? median(c "/queuecap-functions") : ""
			ff = (c "/floor-functions" in samples) ? median(c "/floor-functions") : ""
			lo = (c "/locals" in samples) ? median(c "/locals") : ""
			printf "%-18s %6d %9s %9s %9s %9s %9s   %-14s %-14s %-14s %-14s\n", c, count[c "/locals"], ms(c "/queuecap-data-sources"), ms(c "/floor-data-sources"),
				ms(c "/queuecap-functions"), ms(c "/floor-functions"), ms(c "/locals"), ratio(qd, fd), ratio(fd, lo), ratio(qf, ff), ratio(ff, lo)
		}
	}
	if (nrpc) {
		if (ncli) print ""
		printf "%-28s %14s %14s %14s\n", "in-process (median ns/op)", "queuecap", "floor", "queuecap/floor"
		for (i = 1; i <= nrpc; i++) {
			r = rpcs[i]; q = median("rpc " r "/queuecap"); f = median("rpc " r "/floor")
			printf "%-28s %14.0f %14.0f %14s\n", r, q, f, ratio(q, f)
		}
	}
}
' "$@"

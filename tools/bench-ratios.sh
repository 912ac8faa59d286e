#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# Reads `go test -bench` output (standard input or the files given) and
# prints, for each CLI of BenchmarkPlan, the median of each leg over the
# rounds (QUEUECAP_BENCH_ROUNDS, or -count) and the ratios, each the median
# of the rounds' own ratios (a round's legs run back to back), queuecap / floor
# (queuecap's own cost; the target is at most 1.10) and floor / locals (what
# the framework and the CLI cost), for data sources and functions, and for
# data sources floor / ones (what the CLI costs for queuecap's decimal
# results over the floor returning 1 for every output): once by
# wall time (ns/op) and once by CPU time (cpu-ms/op). Then BenchmarkServer's
# in-process RPCs, queuecap / floor.
set -euo pipefail

awk '
function median(key,    n, i, j, t, a) {
	n = split(samples[key], a, " ")
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function med(key) { return (key in samples) ? median(key) : "" }
# paired(a, b): the median over the rounds of a / b, each pair from one
# round (the legs of a round run back to back, so a drift in the
# speed of the machine falls on both); "-" without samples.
function paired(a, b,    n, m, i, x, y, r) {
	if (!(a in samples) || !(b in samples)) return "-"
	n = split(samples[a], x, " "); m = split(samples[b], y, " ")
	if (m < n) n = m
	samples["ratio"] = ""
	for (i = 1; i <= n; i++) if (y[i] > 0) samples["ratio"] = samples["ratio"] " " x[i] / y[i]
	if (samples["ratio"] == "") return "-"
	r = median("ratio"); delete samples["ratio"]
	return sprintf("%.2f", r)
}
function ratio(x, y) { return (x == "" || y == "" || y == 0) ? "-" : sprintf("%.2f", x / y) }
function num(x, scale) { return x == "" ? "-" : sprintf("%.0f", x / scale) }
function metric(what, unit, scale,    i, c, k, qd, fd, od, qf, ff, lo) {
	printf "%-24s %6s %9s %9s %9s %9s %9s %9s   %10s %12s %13s %10s %12s\n", "plan, median " unit, "rounds", "q-ds", "floor-ds", "ones-ds", "q-fn", "floor-fn", "locals",
		"ds q/floor", "ds floor/loc", "ds floor/ones", "fn q/floor", "fn floor/loc"
	for (i = 1; i <= ncli; i++) {
		c = clis[i]; k = what " " c "/"
		qd = med(k "queuecap-data-sources"); fd = med(k "floor-data-sources"); od = med(k "floor-ones-data-sources")
		qf = med(k "queuecap-functions"); ff = med(k "floor-functions"); lo = med(k "locals")
		printf "%-24s %6d %9s %9s %9s %9s %9s %9s   %10s %12s %13s %10s %12s\n", c, count[k "locals"], num(qd, scale), num(fd, scale), num(od, scale), num(qf, scale), num(ff, scale), num(lo, scale),
			paired(k "queuecap-data-sources", k "floor-data-sources"), paired(k "floor-data-sources", k "locals"), paired(k "floor-data-sources", k "floor-ones-data-sources"),
			paired(k "queuecap-functions", k "floor-functions"), paired(k "floor-functions", k "locals")
	}
}
$1 ~ /^BenchmarkPlan\/cli=/ {
	split($1, p, "/"); cli = substr(p[2], 5); sub(/#[0-9]+$/, "", cli); leg = p[3]; sub(/-[0-9]+$/, "", leg)
	if (!(cli in seen)) { seen[cli] = 1; clis[++ncli] = cli }
	for (i = 3; i < NF; i++) {
		if ($(i + 1) == "ns/op") { samples["wall " cli "/" leg] = samples["wall " cli "/" leg] " " $i; count["wall " cli "/" leg]++ }
		if ($(i + 1) == "cpu-ms/op") { samples["cpu " cli "/" leg] = samples["cpu " cli "/" leg] " " $i; count["cpu " cli "/" leg]++ }
	}
}
$1 ~ /^BenchmarkServer\/rpc=/ {
	split($1, p, "/"); rpc = substr(p[2], 5); who = p[3]; sub(/-[0-9]+$/, "", who)
	if (!(rpc in rseen)) { rseen[rpc] = 1; rpcs[++nrpc] = rpc }
	for (i = 3; i < NF; i++) if ($(i + 1) ~ /^(ns|B|allocs)\/op$/) samples[$(i + 1) " " rpc "/" who] = samples[$(i + 1) " " rpc "/" who] " " $i
}
END {
	if (ncli) {
		metric("wall", "ms (wall)", 1e6)
		print ""
		metric("cpu", "cpu-ms", 1)
	}
	if (nrpc) {
		if (ncli) print ""
		printf "%-28s %12s %12s %8s   %10s %10s   %10s %10s\n", "in-process, median", "q ns/op", "floor ns/op", "q/floor", "q B/op", "floor B/op", "q allocs", "floor allocs"
		for (i = 1; i <= nrpc; i++) {
			r = rpcs[i]
			printf "%-28s %12s %12s %8s   %10s %10s   %10s %10s\n", r, num(med("ns/op " r "/queuecap"), 1), num(med("ns/op " r "/floor"), 1),
				ratio(med("ns/op " r "/queuecap"), med("ns/op " r "/floor")), num(med("B/op " r "/queuecap"), 1), num(med("B/op " r "/floor"), 1),
				num(med("allocs/op " r "/queuecap"), 1), num(med("allocs/op " r "/floor"), 1)
		}
	}
}
' "$@"

"""messages.csv's rss_w and sinr (the channel backend's last two columns) and interference_w
recomputed: check sinr (rss_w, sigma^2, interference_w and p_drop agree on each row; one RSS
a static link), check rss (rss_w and the RSS each p_drop stands for equal the link's RSS
recomputed by LinkRss) and check interference (the co-channel senders' RSS at the receiver).
"""

import bisect
import math

from d2dlearn_analysis.audit.core import NS_TOL, close, fmt, is_number
from d2dlearn_analysis.audit.environment import held, moves
from d2dlearn_analysis.audit.spectrum import transmissions

# Reasons of rows D2dChannel::DropUnsent writes (a message withdrawn or dropped from the
# queue): rss_w drawn, p_drop eq. 18's of it or 1 where the link is not heard.
UNSENT_REASONS = {"cancelled", "sender_off", "unfinished"}


def check_sinr(a, messages, sp):
    """Where each link's RSS stays constant (no movement, no dynamic RSS, no fading, a loss
    model that keeps a static link's loss: Environment.held; a drop probability override is
    an RSS inverted from eq. 18, constant too), W = -(2^r - 1)(sigma^2 + I) / ln(1 - p_drop)
    recovered from each row with 0 < p_drop < 1 is the same on every row of a (src, dst) D2D
    link, of a device's D2S links (every D2S link with --d2sLinks=equal): relative 1e-9, plus
    the rounding of p_drop = 1 - exp(-x) in the channel, 4.4e-16 / ((1 - p) |ln(1 - p)|) (a
    tiny p_drop carries few digits of W); and so is rss_w (relative 1e-15: the same double)."""
    p = a.params
    if moves(a) or p.get("dynamicRssLevels") or p.get("backend", "channel") != "channel":
        return
    r_eff = p.get("spectralEfficiency")
    if not isinstance(r_eff, (int, float)):
        return
    keeps = {}
    for ch in ("D2D", "D2S"):
        keeps[ch], why = held(a, ch)
        if why:
            a.skip("messages.csv", "sinr", "%s rows keep one RSS a link: %s" % (ch, why))
    factor = 2.0 ** r_eff - 1.0
    first = {}
    first_w = {}
    for r in messages:
        pd, i_w = r["p_drop#"], r.get("interference_w#")
        if r["reason"] == "out_of_range":
            continue
        ch = sp.channel(r)
        if not keeps[ch]:
            continue
        # The links of one RSS: a D2D link (src, dst); a device's D2S uplink and downlink,
        # or every D2S link with --d2sLinks=equal (as check p_drop holds their p_drop).
        if ch == "D2D":
            link, label = (r["src"], r["dst"]), "link %s->%s" % (r["src"], r["dst"])
        elif p.get("d2sLinks", "equal") == "equal":
            link, label = ("D2S",), "every D2S link (--d2sLinks=equal)"
        else:
            device = r["dst"] if r["src#"] == sp.n else r["src"]
            link, label = ("D2S", device), "device %s's D2S link" % device
        w_row = r.get("rss_w#")
        if w_row is not None:
            if link not in first_w:
                first_w[link] = (r["_line"], w_row)
            else:
                line, w0 = first_w[link]
                a.expect(abs(w_row - w0) <= 1e-15 * max(abs(w_row), abs(w0)),
                         "messages.csv:%d" % r["_line"], "sinr",
                         "%s: rss_w as at row %d (a constant RSS)" % (label, line), w0, w_row)
        if pd is None or i_w is None or not 0.0 < pd < 1.0:
            continue
        # (A drop probability override is a constant RSS too: inverted from eq. 18.)
        noise = a.noise[ch][0]
        if not isinstance(noise, (int, float)):
            continue
        x = -math.log1p(-pd)
        w = factor * (noise + i_w) / x
        tol = 1e-9 + 4.4e-16 / ((1.0 - pd) * x)
        if link not in first:
            first[link] = (r["_line"], w, tol)
            continue
        line, w0, tol0 = first[link]
        a.expect(abs(w - w0) <= (tol + tol0) * max(w, w0), "messages.csv:%d" % r["_line"],
                 "sinr", "%s: W = -(2^r - 1)(sigma^2 + interference_w) / ln(1 - p_drop) as at "
                 "row %d (a constant RSS)" % (label, line), w0, w)


def check_link_columns(a, messages, sp, rss):
    """messages.csv's rss_w and sinr (the channel backend's last two columns): empty on
    out_of_range rows (the link was not evaluated), given on every other row with rss_w > 0
    (check rss); sinr = rss_w / (sigma^2 + interference_w), sigma^2 recomputed
    (noise_in_force), relative 1e-12; p_drop = 1 - exp(-(2^r - 1) / sinr) (eq. 18 in its SINR
    form), within 1e-15 + 1e-12 p_drop (the channel computes it from sigma^2 + I over W:
    a few ulps of the exponent apart), on every row but those D2dChannel::DropUnsent wrote
    (cancelled, sender_off, unfinished) for a link not heard, whose p_drop is 1 (accepted
    there unless LinkRss knows the receiver hears the sender)."""
    r_eff = a.params.get("spectralEfficiency")
    factor = 2.0 ** r_eff - 1.0 if is_number(r_eff) else None
    for r in messages:
        where = "messages.csv:%d" % r["_line"]
        w, snr, pd, i_w = r.get("rss_w#"), r.get("sinr#"), r["p_drop#"], r.get("interference_w#")
        if r["reason"] == "out_of_range":
            a.expect(r.get("rss_w") == "" and r.get("sinr") == "", where, "rss",
                     "rss_w and sinr empty on an out_of_range row (the link not evaluated)",
                     "empty", "rss_w=%s sinr=%s" % (r.get("rss_w") or "empty",
                                                    r.get("sinr") or "empty"))
            continue
        if not a.expect(w is not None and snr is not None, where, "rss",
                        "rss_w and sinr given on a row whose link was evaluated (reason %s)"
                        % (r["reason"] or "none: delivered"), "both",
                        "rss_w=%s sinr=%s" % (r.get("rss_w") or "empty",
                                              r.get("sinr") or "empty")):
            continue
        a.expect(w > 0 and not math.isinf(w), where, "rss", "rss_w > 0 (W)", "> 0", w)
        ch = sp.channel(r)
        noise = a.noise[ch][0]
        if is_number(noise) and i_w is not None:
            den = noise + i_w
            want = w / den if den > 0 else math.inf
            a.expect(close(want, snr, 1e-12) or (want == snr), where, "sinr",
                     "sinr = rss_w / (sigma^2 + interference_w), sigma^2 %r of the %s links "
                     "(%s)" % (noise, ch, a.noise[ch][1]), want, snr)
        if factor is None or pd is None or math.isnan(snr) or snr < 0:
            continue
        want = 1.0 - math.exp(-factor / snr) if snr > 0 else 1.0
        ok = abs(want - pd) <= 1e-15 + 1e-12 * pd
        if not ok and pd == 1.0 and r["reason"] in UNSENT_REASONS and (
                None in (r["src#"], r["dst#"]) or rss.hears(ch, r["dst#"], r["src#"]) is not True):
            ok = True  # DropUnsent: a link not heard (or maybe not) has p_drop 1
        a.expect(ok, where, "sinr", "p_drop = 1 - exp(-(2^r - 1) / sinr) (eq. 18, r %s)"
                 % fmt(r_eff), want, pd)


def check_rss(a, messages, sp, rss):
    """Where LinkRss recomputes a link's RSS from run.json and positions.csv (the default
    log-distance, Friis, a drop probability, --rssFile): each row's rss_w equals it (the
    recomputation's tolerance plus 1e-12), and each row with 0 < p_drop < 1: the RSS W =
    (2^r - 1)(sigma^2 + interference_w) / -ln(1 - p_drop) it stands for (eq. 18) equals it,
    within the recomputation's tolerance and p_drop's rounding 4.4e-16 / ((1 - p) |ln(1 -
    p)|). Skipped (with the reason) where the RSS is not recomputable (LinkRss.why): there
    rss_w is tied to p_drop and sigma^2 by check sinr only."""
    for r in messages:
        pd, src, dst = r["p_drop#"], r["src#"], r["dst#"]
        if src is None or dst is None or r["reason"] == "out_of_range":
            continue
        ch = sp.channel(r)
        if not rss.recomputed(ch):
            if rss.why.get(ch):
                a.skip("messages.csv", "rss", "%s rows: %s" % (ch, rss.why[ch]))
            continue
        got = rss.get(ch, dst, src)
        if got is None:
            continue
        w_model, rel = got
        where = "messages.csv:%d" % r["_line"]
        w_row = r.get("rss_w#")
        if w_row is not None:
            a.expect(abs(w_row - w_model) <= (rel + 1e-12) * max(w_row, w_model), where, "rss",
                     "%s link %d->%d: rss_w equals the link's RSS (%s)"
                     % (ch, src, dst, rss.what(ch)), w_model, w_row)
        noise = rss.noise[ch]
        if pd is None or not 0.0 < pd < 1.0 or not isinstance(noise, (int, float)):
            continue
        x = -math.log1p(-pd)
        w = rss.factor * (noise + (r.get("interference_w#") or 0.0)) / x
        tol = rel + 1e-9 + 4.4e-16 / ((1.0 - pd) * x)
        a.expect(abs(w - w_model) <= tol * max(w, w_model), where,
                 "rss", "%s link %d->%d: W = (2^r - 1)(sigma^2 + interference_w) / "
                 "-ln(1 - p_drop) equals the link's RSS (%s)"
                 % (ch, src, dst, rss.what(ch)), w_model, w)


def check_interference(a, messages, sp, rss):
    """interference_w recomputed (D2dSpectrum::InterferenceW): at its receiver i, when the
    transmission started, the sum over every other transmission on the air on the same
    channel, from a sender j != i that i hears, of W_ij x (the sub-channels the two share) /
    (the row's sub-channels m). A transmission on the air at t_start_s for certain: started
    before and ending after it (1 ns, the order of events at one time unknown); one starting
    or ending at that very nanosecond, or cut short (sender_off, unfinished: left the air at
    an unknown time), or whose hearing is uncertain may count or not: interference_w must lie
    between the sum of the certain ones and that plus the uncertain ones, within the RSS's
    tolerance (LinkRss) plus 1e-12 relative."""
    if sp.untraced:
        a.skip("messages.csv", "interference", "kinds left out of messages.csv "
               "(untraced_message_rows) may have been on the air")
        return
    on_air = transmissions(messages, sp)
    by_sub = {}
    for (ch, msg), (r, start, end, cut) in on_air.items():
        for c in r["sub_channels"]:
            by_sub.setdefault((ch, c), []).append((start, end, cut, msg, r))
    index = {}
    for key, lst in by_sub.items():
        lst.sort(key=lambda t: t[0])
        longest = max(t[1] - t[0] for t in lst) if lst else 0
        index[key] = ([t[0] for t in lst], lst, longest)
    for r in messages:
        i_w, start, subs = r.get("interference_w#"), r["t_start_ns"], r["sub_channels"]
        if i_w is None or start is None or not subs or r["dst#"] is None:
            continue
        ch = sp.channel(r)
        if sp.k[ch] == 0 or not sp.interference:
            continue  # check spectrum: 0
        rx = r["dst#"]
        lo = hi = tol = 0.0
        unknown = None
        for c in subs:
            starts, lst, longest = index.get((ch, c), ([], [], 0))
            first = bisect.bisect_left(starts, start - longest - NS_TOL)
            last = bisect.bisect_right(starts, start + NS_TOL)
            for o_start, o_end, cut, msg, o in lst[first:last]:
                sender = o["src#"]
                if msg == r["msg_id"] or sender is None or sender == rx:
                    continue
                if o_end < start - NS_TOL and not cut:
                    continue
                if o_start > start + NS_TOL:
                    continue
                certain = (o_start < start - NS_TOL and o_end > start + NS_TOL and not cut)
                if cut and o_start > start + NS_TOL:
                    continue
                hears = rss.hears(ch, rx, sender)
                if hears is False:
                    continue
                got = rss.get(ch, rx, sender)
                if got is None:
                    unknown = sender
                    continue
                w, rel = got
                share = w / len(subs)
                if certain and hears:
                    lo += share
                hi += share
                tol += share * rel
        where = "messages.csv:%d" % r["_line"]
        if unknown is not None:
            a.skip("messages.csv", "interference", "%s: the RSS of a co-channel sender is "
                   "not known here (%s)" % (ch, "no row of its link gives its rss_w"
                                            if rss.kind[ch] == "observed"
                                            else rss.why.get(ch) or "no position"))
            a.expect(i_w >= lo - tol - 1e-12 * lo, where, "interference",
                     "interference_w at least the co-channel senders' RSS whose is known",
                     ">= %r" % lo, i_w)
            continue
        slack = tol + 1e-12 * hi + 1e-300
        a.expect(lo - slack <= i_w <= hi + slack, where, "interference",
                 "interference_w = the RSS at %s %d of the other %s transmissions on its "
                 "sub-channel(s) %s at t_start_s (x shared / %d sub-channels)"
                 % ("the server" if ch == "D2S" and rx == sp.n else "device", rx, ch,
                    r["sub_channel"], len(subs)),
                 repr(lo) if lo == hi else "[%r, %r]" % (lo, hi), i_w)

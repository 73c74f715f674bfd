/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest unit tests of D2dRunSummary, run.json's "summary": a hand-worked set of
 * messages.csv, energy.csv and rounds.csv rows and the numbers the summary must give
 * (worked out in the comments), and the type-7 percentile against values numpy gives.
 */

#include "ns3/d2d-run-summary.h"
#include "ns3/nstime.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using ns3::D2dDeliveryMode;
using ns3::D2dDeliveryRecord;
using ns3::D2dRunSummary;
using ns3::Seconds;

namespace
{

/** \return a messages.csv row */
D2dDeliveryRecord
Row(uint64_t id,
    const std::string& kind,
    uint64_t bytes,
    uint32_t fragments,
    uint32_t lost,
    uint32_t retransmissions,
    bool delivered,
    double sendS,
    double recvS)
{
    D2dDeliveryRecord r;
    r.msgId = id;
    r.kind = kind;
    r.bytes = bytes;
    r.fragments = fragments;
    r.fragmentsLost = lost;
    r.retransmissions = retransmissions;
    r.delivered = delivered;
    r.mode = retransmissions ? D2dDeliveryMode::RELIABLE : D2dDeliveryMode::UNRELIABLE;
    r.sendTime = Seconds(sendS);
    r.recvTime = Seconds(recvS);
    return r;
}

/** \return true if json holds "key": value */
::testing::AssertionResult
Holds(const std::string& json, const std::string& keyValue)
{
    if (json.find(keyValue) != std::string::npos)
    {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "no '" << keyValue << "' in\n" << json;
}

TEST(D2dRunSummaryPercentile, Type7LikeNumpy)
{
    // numpy.percentile(range(1, 11), 95): h = 9 x 0.95 = 8.55, x_8 + 0.55 (x_9 - x_8) = 9.55.
    std::vector<double> v{10, 1, 9, 2, 8, 3, 7, 4, 6, 5};
    EXPECT_DOUBLE_EQ(D2dRunSummary::Percentile(v, 0.95), 9.55);
    EXPECT_DOUBLE_EQ(D2dRunSummary::Percentile(v, 0.5), 5.5);
    EXPECT_DOUBLE_EQ(D2dRunSummary::Percentile(v, 0.0), 1.0);
    EXPECT_DOUBLE_EQ(D2dRunSummary::Percentile(v, 1.0), 10.0);
    EXPECT_DOUBLE_EQ(D2dRunSummary::Percentile({3.5}, 0.95), 3.5);
    // Two values 0.5, 1: h = 0.95, 0.5 + 0.95 x 0.5 = 0.975.
    EXPECT_DOUBLE_EQ(D2dRunSummary::Percentile({1.0, 0.5}, 0.95), 0.975);
}

TEST(D2dRunSummary, HandWorkedRun)
{
    D2dRunSummary s;
    // Message 1: a reliable broadcast of 1000 bytes (2 fragments) to two receivers; the
    // sender's retransmission count is 1 when receiver 1's row is written, 3 at the end.
    s.AddDelivery(Row(1, "model", 1000, 2, 0, 1, true, 1.0, 1.5));
    s.AddDelivery(Row(1, "model", 1000, 2, 0, 3, true, 1.0, 2.0));
    // Message 2: a single-fragment model of 500 bytes, lost.
    s.AddDelivery(Row(2, "model", 500, 1, 1, 0, false, 3.0, 0.0));
    // Message 3: unreliable data, 4 fragments, one lost: delivered but not complete.
    s.AddDelivery(Row(3, "data", 4000, 4, 1, 0, true, 0.0, 0.25));
    s.AddEnergy("radio_tx", 0.5);
    s.AddEnergy("compute", 2.0);
    s.AddEnergy("radio_tx", 0.25);
    s.AddEnergy("custom", 1.0);
    s.EnableRounds();
    // Global accuracy 0.1, 0.5, 0.7, 0.6 in rounds 0..3; device rows and loss do not count.
    const std::vector<double> acc{0.1, 0.5, 0.7, 0.6};
    for (uint32_t k = 0; k < acc.size(); ++k)
    {
        s.AddRound(k, -1, "accuracy", acc[k]);
        s.AddRound(k, -1, "loss", 2.0 - k);
        s.AddRound(k, 0, "accuracy", 0.99);
    }
    const std::string json = s.ToJson(12.5, 0.25, "  ");

    EXPECT_TRUE(Holds(json, "\"metric\": \"accuracy\""));
    EXPECT_TRUE(Holds(json, "\"metric_from\": \"node -1\""));
    EXPECT_TRUE(Holds(json, "\"final_accuracy\": 0.6,"));
    EXPECT_TRUE(Holds(json, "\"best_accuracy\": 0.7,"));
    EXPECT_TRUE(Holds(json, "\"best_accuracy_round\": 2,"));
    EXPECT_TRUE(Holds(json, "\"rounds_completed\": 3,"));
    // Energy: radio_tx 0.75, compute 2, the others (sleep states included) 0, custom 1;
    // total 3.75.
    EXPECT_TRUE(Holds(json,
                      "\"energy_j\": {\"radio_tx\": 0.75, \"radio_rx\": 0, \"radio_idle\": 0, "
                      "\"radio_sleep\": 0, \"radio_transition\": 0, \"compute\": 2, \"d2s_tx\": 0, "
                      "\"d2s_rx\": 0, \"d2s_idle\": 0, \"d2s_sleep\": 0, \"d2s_transition\": 0, "
                      "\"custom\": 1, \"total\": 3.75}"));
    // 4 rows, 2 complete (message 1 twice), 3 delivered; 3 messages.
    EXPECT_TRUE(Holds(json, "\"message_rows\": 4,"));
    EXPECT_TRUE(Holds(json, "\"messages\": 3,"));
    EXPECT_TRUE(Holds(json, "\"complete_delivery_rate\": 0.5,"));
    EXPECT_TRUE(Holds(json, "\"delivered_rate\": 0.75,"));
    // Fragments 2 + 1 + 4 = 7, retransmissions max(1, 3) + 0 + 0 = 3, ratio 3/7.
    EXPECT_TRUE(Holds(json, "\"fragments\": 7,"));
    EXPECT_TRUE(Holds(json, "\"retransmissions\": 3,"));
    EXPECT_TRUE(Holds(json, "\"retransmissions_per_fragment\": 0.42857142857142855,"));
    // Bytes: each message once, 1000 + 500 + 4000.
    EXPECT_TRUE(Holds(json, "\"bytes_sent\": 5500,"));
    // data: 1 row, not complete, latency 0.25; model: 3 rows, 2 complete, latencies 0.5 and
    // 1 (mean 0.75, p95 0.975).
    EXPECT_TRUE(Holds(json,
                      "\"data\": {\"rows\": 1, \"complete_rate\": 0, \"latency_n\": 1, "
                      "\"latency_mean_s\": 0.25, \"latency_p95_s\": 0.25, "
                      "\"latency_p95_estimator\": \"exact\"}"));
    EXPECT_TRUE(Holds(json,
                      "\"model\": {\"rows\": 3, \"complete_rate\": 0.6666666666666666, "
                      "\"latency_n\": 2, \"latency_mean_s\": 0.75, \"latency_p95_s\": 0.975, "
                      "\"latency_p95_estimator\": \"exact\"}"));
    EXPECT_TRUE(Holds(json, "\"simulated_time_s\": 12.500000000,"));
    EXPECT_TRUE(Holds(json, "\"wall_time_s\": 0.250\n  }"));
}

TEST(D2dRunSummary, LastRowsFoldIntoTheSameTotals)
{
    // The hand-worked messages of HandWorkedRun, with each message's last row marked: the
    // totals are the same, and the summary holds no message once its last row came.
    D2dRunSummary s;
    auto last = [](D2dDeliveryRecord r) {
        r.lastRow = true;
        return r;
    };
    s.AddDelivery(Row(1, "model", 1000, 2, 0, 1, true, 1.0, 1.5));
    s.AddDelivery(last(Row(1, "model", 1000, 2, 0, 3, true, 1.0, 2.0)));
    s.AddDelivery(last(Row(2, "model", 500, 1, 1, 0, false, 3.0, 0.0)));
    s.AddDelivery(Row(3, "data", 4000, 4, 1, 0, true, 0.0, 0.25)); // last row never came
    const std::string json = s.ToJson(12.5, 0.25, "  ");
    EXPECT_TRUE(Holds(json, "\"messages\": 3,"));
    EXPECT_TRUE(Holds(json, "\"fragments\": 7,"));
    EXPECT_TRUE(Holds(json, "\"retransmissions\": 3,"));
    EXPECT_TRUE(Holds(json, "\"bytes_sent\": 5500,"));
}

TEST(D2dRunSummary, LowerIsBetterAndNoRounds)
{
    // bayes-consensus gaussian-linear: mse 4, 1, 2 in steps 1..3 (node -1): final 2, best 1.
    D2dRunSummary s;
    s.AddRound(1, -1, "mse", 4.0);
    s.AddRound(2, -1, "mse", 1.0);
    s.AddRound(3, -1, "mse", 2.0);
    s.AddRound(3, -1, "excess_mse", 0.5);
    const std::string json = s.ToJson(1, 0, "");
    EXPECT_TRUE(Holds(json, "\"metric\": \"mse\""));
    EXPECT_TRUE(Holds(json, "\"final_mse\": 2,"));
    EXPECT_TRUE(Holds(json, "\"best_mse\": 1,"));
    EXPECT_TRUE(Holds(json, "\"best_mse_round\": 2,"));
    EXPECT_TRUE(Holds(json, "\"rounds_completed\": 3,"));
    // No messages: ratios of nothing are null.
    EXPECT_TRUE(Holds(json, "\"complete_delivery_rate\": null,"));
    EXPECT_TRUE(Holds(json, "\"retransmissions_per_fragment\": null,"));
    EXPECT_TRUE(Holds(json, "\"kinds\": {},"));

    // A scenario without rounds.csv (d2d-exchange): no metric, no rounds_completed.
    D2dRunSummary none;
    const std::string plain = none.ToJson(1, 0, "");
    EXPECT_EQ(plain.find("metric"), std::string::npos) << plain;
    EXPECT_EQ(plain.find("rounds_completed"), std::string::npos) << plain;
}

TEST(D2dRunSummary, DeviceMeanWithoutGlobalRows)
{
    // bayes-consensus network runs write device rows only: mse of devices 0 and 1 is
    // (4, 2), (1, 3), (2, 4) in steps 1..3, means 3, 2, 3: final 3, best 2 in step 2.
    D2dRunSummary s;
    const double mse[3][2] = {{4, 2}, {1, 3}, {2, 4}};
    for (uint32_t k = 0; k < 3; ++k)
    {
        for (int64_t node = 0; node < 2; ++node)
        {
            s.AddRound(k + 1, node, "mse", mse[k][node]);
            s.AddRound(k + 1, node, "excess_mse", 0.5);
        }
    }
    const std::string json = s.ToJson(1, 0, "");
    EXPECT_TRUE(Holds(json, "\"metric\": \"mse\""));
    EXPECT_TRUE(Holds(json, "\"metric_from\": \"device mean\""));
    EXPECT_TRUE(Holds(json, "\"final_mse\": 3,"));
    EXPECT_TRUE(Holds(json, "\"best_mse\": 2,"));
    EXPECT_TRUE(Holds(json, "\"best_mse_round\": 2,"));
    EXPECT_TRUE(Holds(json, "\"rounds_completed\": 3,"));

    // Node -1 rows of a later metric in the order win over device rows of an earlier one.
    D2dRunSummary t;
    t.AddRound(1, 0, "accuracy", 0.9);
    t.AddRound(1, -1, "error", 0.25);
    const std::string both = t.ToJson(1, 0, "");
    EXPECT_TRUE(Holds(both, "\"metric\": \"error\""));
    EXPECT_TRUE(Holds(both, "\"metric_from\": \"node -1\""));
}

TEST(D2dRunSummary, ValuesAsRoundsCsvWritesThem)
{
    // rounds.csv keeps 9 significant digits: the summary reports that value.
    D2dRunSummary s;
    s.AddRound(1, -1, "accuracy", 0.123456789123);
    EXPECT_DOUBLE_EQ(D2dRunSummary::AsWritten(0.123456789123), 0.123456789);
    EXPECT_TRUE(Holds(s.ToJson(1, 0, ""), "\"final_accuracy\": 0.123456789,"));
}

} // namespace

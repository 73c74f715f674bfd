/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test suite "d2d-learner": the LibTorch learner and models as messages.
 *
 * - model messages: true size (header + 4 or 2 bytes per value) and float16 values
 *   rounded as IEEE binary16 (hand values);
 * - parameter counts and FLOPs per training sample against hand formulas (logistic, MLP,
 *   CNN);
 * - a training job lasts samples x FLOPs / (FLOP/s) x slow-down of simulated time, and
 *   its result is invisible before its completion event;
 * - a device whose battery dies mid-job never completes it; a depleted device cannot
 *   start one;
 * - regression: the linear model on the Example 1 data of Lalitha et al. 2018 recovers
 *   theta* and the noise variance;
 * - determinism: the same seed and id give the same weights after training on 2 workers,
 *   whatever ran concurrently;
 * - storage: weights set as a flat vector come back bit for bit, directly and through a
 *   job's module (a job of no steps: copied in, copied out), odd values (-0, subnormals,
 *   infinities, a NaN payload) included; a shared vector is held without a copy; released
 *   weights are gone; 60 learners of one architecture make no module each (the count of
 *   live LibTorch modules grows by at most one per thread that ran a job);
 * - optimizer state kept across jobs (KeepOptimizerState) as flat vectors: two jobs of one
 *   epoch give bit for bit the weights of one job of two epochs (SGD with momentum, Adam),
 *   and a fresh optimizer per job does not.
 * - triplet encoder (--model=triplet): parameters and FLOPs against hand formulas, a job
 *   lasts its modelled work, same seed and id give the same bytes, linear evaluation is
 *   deterministic;
 * - lifetime: a learner whose last job completed is destroyed with its training set when
 *   its owner lets it go (a job used to keep it alive: learner state -> job future ->
 *   task -> job -> learner state, a cycle LeakSanitizer reported), inline and on workers,
 *   after a training and after a prediction job.
 */

#include "d2d-test-fixtures.h"

#include "ns3/boolean.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/d2d-compute-model.h"
#include "ns3/d2d-helper.h"
#include "ns3/d2d-learner.h"
#include "ns3/d2d-model-payload.h"
#include "ns3/d2d-partitioner.h"
#include "ns3/d2d-synthetic-data.h"
#include "ns3/d2d-torch-runtime.h"
#include "ns3/double.h"
#include "ns3/energy-source-container.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** \return 5 % of Fashion-MNIST's test split (500 samples), loaded once */
std::shared_ptr<const D2dDataset>
SmallMnist()
{
    return FashionTestSplit("test", 0.05, 1);
}

D2dShard
FirstN(std::size_t n)
{
    D2dShard s;
    for (std::size_t i = 0; i < n; ++i)
    {
        s.indices.push_back(i);
    }
    return s;
}

/** Model messages: sizes and float16 rounding. */
class ModelMessageTestCase : public TestCase
{
  public:
    ModelMessageTestCase()
        : TestCase("Model messages have their true size; float16 values are rounded to binary16")
    {
    }

  private:
    void DoRun() override
    {
        D2dModelCodec f32("float32");
        D2dModelCodec f16("float16");
        NS_TEST_ASSERT_MSG_EQ(f32.BytesFor(1000), 32u + 4000u, "float32 size");
        NS_TEST_ASSERT_MSG_EQ(f16.BytesFor(1000), 32u + 2000u, "float16 size");
        const std::vector<float> values{1.0f / 3.0f, 65504.0f, 1e-8f, -2.5f, 0.1f};
        auto m16 = f16.Encode("update", "weights", 4, 7, 2, values, {1, 3});
        auto p = m16->GetPayloadAs<D2dModelPayload>();
        NS_TEST_ASSERT_MSG_EQ(m16->GetSizeBytes(), 32u + 2 * 5 + 4 * 2, "size with recipients");
        // binary16: 1/3 -> 0x3555 = 0.333251953125; 65504 is the largest finite value;
        // 1e-8 is below half the smallest subnormal (2^-25): 0; 0.1 -> 0x2E66.
        NS_TEST_ASSERT_MSG_EQ((*p->values)[0], 0.333251953125f, "1/3");
        NS_TEST_ASSERT_MSG_EQ((*p->values)[1], 65504.0f, "max half");
        NS_TEST_ASSERT_MSG_EQ((*p->values)[2], 0.0f, "underflow");
        NS_TEST_ASSERT_MSG_EQ((*p->values)[3], -2.5f, "exact");
        NS_TEST_ASSERT_MSG_EQ((*p->values)[4], 0.0999755859375f, "0.1");
        NS_TEST_ASSERT_MSG_EQ(p->round, 4u, "round");
        NS_TEST_ASSERT_MSG_EQ(p->samples, 7u, "samples");
        NS_TEST_ASSERT_MSG_EQ(p->IsFor(1), true, "recipient 1");
        NS_TEST_ASSERT_MSG_EQ(p->IsFor(2), false, "not recipient 2");
        auto m32 = f32.Encode("update", "weights", 0, 0, 0, values);
        NS_TEST_ASSERT_MSG_EQ((*m32->GetPayloadAs<D2dModelPayload>()->values == values),
                              true,
                              "float32 values unchanged");
        NS_TEST_ASSERT_MSG_EQ(m32->GetPayloadAs<D2dModelPayload>()->IsFor(9), true, "all");
        // Recipients: a binary search when ascending, a scan otherwise; the same answers.
        std::vector<uint32_t> many;
        for (uint32_t d = 0; d < 1000; d += 3)
        {
            many.push_back(d);
        }
        auto sorted =
            f32.Encode("m", "weights", 0, 0, 0, values, many)->GetPayloadAs<D2dModelPayload>();
        std::reverse(many.begin(), many.end());
        auto unsorted =
            f32.Encode("m", "weights", 0, 0, 0, values, many)->GetPayloadAs<D2dModelPayload>();
        for (uint32_t d = 0; d < 1002; ++d)
        {
            NS_TEST_ASSERT_MSG_EQ(sorted->IsFor(d), (d % 3 == 0), "ascending, device " << d);
            NS_TEST_ASSERT_MSG_EQ(unsorted->IsFor(d), (d % 3 == 0), "descending, device " << d);
        }
    }
};

/** Parameter counts and FLOPs per sample. */
class ModelSizeTestCase : public TestCase
{
  public:
    ModelSizeTestCase()
        : TestCase("Parameter counts and FLOPs per training sample of logistic, MLP and CNN")
    {
    }

  private:
    void DoRun() override
    {
        auto data = SmallMnist();

        struct Case
        {
            std::string model;
            double params;
            double forward;
        };

        const std::vector<Case> cases{
            {"logistic", 784.0 * 10 + 10, 2.0 * 784 * 10},
            {"mlp:64", 784.0 * 64 + 64 + 64 * 10 + 10, 2.0 * (784 * 64 + 64 * 10)},
            {"mlp:32x16",
             784.0 * 32 + 32 + 32 * 16 + 16 + 16 * 10 + 10,
             2.0 * (784 * 32 + 32 * 16 + 16 * 10)},
            // conv 5x5 'same' + 2x2 pooling twice: 28x28x16, 14x14x32, then 7x7x32 -> 10.
            {"cnn:16x32",
             (25.0 * 16 + 16) + (16.0 * 25 * 32 + 32) + (32.0 * 49 * 10 + 10),
             2.0 * 25 * 16 * 28 * 28 + 2.0 * 16 * 25 * 32 * 14 * 14 + 2.0 * 32 * 49 * 10}};
        for (const auto& c : cases)
        {
            auto l = CreateObject<D2dLearner>();
            l->Setup(0, D2dModelSpec::Parse(c.model), data, FirstN(10), 1);
            NS_TEST_ASSERT_MSG_EQ(l->GetNParameters(), c.params, c.model << " parameters");
            NS_TEST_ASSERT_MSG_EQ_TOL(l->GetTrainingFlopsPerSample(),
                                      3 * c.forward,
                                      1e-6,
                                      c.model << " FLOPs");
            NS_TEST_ASSERT_MSG_EQ(l->GetParameters().size(), c.params, c.model << " flat");
            NS_TEST_ASSERT_MSG_EQ(D2dModelSpec::Parse(c.model).ToString(), c.model, "round trip");
        }
    }
};

/** Training takes simulated time; depletion mid-job. */
class TrainingTimeTestCase : public TestCase
{
  public:
    TrainingTimeTestCase()
        : TestCase("A training job lasts its modelled work; a battery dying mid-job never "
                   "completes it")
    {
    }

  private:
    void DoRun() override
    {
        D2dTorchRuntime::SetWorkers(2);
        auto data = SmallMnist();
        NodeContainer nodes = MakeTestNodesOnLine(2, 1.0);
        D2dHelper d2d;
        d2d.SetComputeAttribute("FlopsPerSecond", DoubleValue(1e9));
        d2d.SetComputeAttribute("BusyPowerW", DoubleValue(2.0));
        d2d.SetInitialEnergyJ(1e6);
        d2d.Install(nodes);
        // Device 1: slowed down 3x, and a battery that lasts 0.05 s of computing.
        auto slow = D2dHelper::GetComputeModel(nodes.Get(1));
        slow->SetAttribute("SlowdownFactor", DoubleValue(3.0));
        nodes.Get(1)->GetObject<EnergySourceContainer>()->Get(0)->SetAttribute("InitialEnergyJ",
                                                                               DoubleValue(0.1));

        const D2dModelSpec spec = D2dModelSpec::Parse("mlp:64");
        std::vector<Ptr<D2dLearner>> learners;
        for (uint32_t i = 0; i < 2; ++i)
        {
            auto l = CreateObject<D2dLearner>();
            l->Setup(i, spec, data, FirstN(100), 1);
            l->SetComputeModel(D2dHelper::GetComputeModel(nodes.Get(i)));
            learners.push_back(l);
        }
        const double flops = 100 * 2 * 3 * 2.0 * (784 * 64 + 64 * 10); // 2 epochs
        double doneAt = -1;
        bool visibleEarly = true;
        bool slowDone = false;
        D2dTrainTask task;
        task.epochs = 2;
        const auto before = learners[0]->GetParameters();
        Simulator::Schedule(Seconds(1), [&]() {
            NS_TEST_EXPECT_MSG_EQ(
                learners[0]->Train(
                    task,
                    Callback<void, const D2dTrainResult&>([&](const D2dTrainResult& r) {
                        doneAt = Simulator::Now().GetSeconds();
                        NS_TEST_EXPECT_MSG_EQ(r.samples, 200u, "samples");
                        NS_TEST_EXPECT_MSG_EQ(r.steps, 8u, "4 steps/epoch");
                        NS_TEST_EXPECT_MSG_EQ_TOL(r.flops, flops, 1e-3, "modelled FLOPs");
                    })),
                true,
                "device 0 starts");
            NS_TEST_EXPECT_MSG_EQ(
                learners[1]->Train(task,
                                   Callback<void, const D2dTrainResult&>(
                                       [&](const D2dTrainResult&) { slowDone = true; })),
                true,
                "device 1 starts");
        });
        // Half-way, the job runs: the learner refuses to show its weights (IsTraining).
        Simulator::Schedule(Seconds(1) + Seconds(flops / 1e9 / 2),
                            [&]() { visibleEarly = !learners[0]->IsTraining(); });
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(doneAt, 1 + flops / 1e9, 1e-9, "duration = FLOPs / FLOP/s");
        NS_TEST_ASSERT_MSG_EQ(visibleEarly, false, "result hidden until completion");
        NS_TEST_ASSERT_MSG_EQ((learners[0]->GetParameters() != before), true, "it trained");
        // Device 1 needs 3 x flops / 1e9 = 0.196 s at 2 W = 0.39 J > 0.1 J: it dies at
        // 0.05 s and never completes.
        NS_TEST_ASSERT_MSG_EQ(slowDone, false, "a depleted device never completes");
        NS_TEST_ASSERT_MSG_EQ(learners[1]->IsTraining(), true, "its job stays unfinished");
        Simulator::Destroy();

        // A depleted device cannot start a job.
        NodeContainer dead;
        dead.Create(1);
        dead.Get(0)->AggregateObject(CreateObject<ConstantPositionMobilityModel>());
        D2dHelper d2d2;
        d2d2.SetInitialEnergyJ(1e-9);
        d2d2.SetComputeAttribute("IdlePowerW", DoubleValue(1.0));
        d2d2.Install(dead);
        auto l = CreateObject<D2dLearner>();
        l->Setup(0, spec, data, FirstN(10), 1);
        l->SetComputeModel(D2dHelper::GetComputeModel(dead.Get(0)));
        bool started = true;
        Simulator::Schedule(Seconds(1), [&]() {
            started = l->Train(task, Callback<void, const D2dTrainResult&>());
        });
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(started, false, "depleted: Train refuses");
    }
};

/** Regression on Example 1's data. */
class RegressionTestCase : public TestCase
{
  public:
    RegressionTestCase()
        : TestCase("The linear model recovers theta* of Example 1 of Lalitha et al. 2018 "
                   "(regression path)")
    {
    }

  private:
    void DoRun() override
    {
        auto train = D2dSyntheticData::Example1(-1, 4000, 1);
        auto test = D2dSyntheticData::Example1(-1, 4000, 2);
        auto l = CreateObject<D2dLearner>();
        l->SetAttribute("LearningRate", DoubleValue(0.05));
        l->Setup(0, D2dModelSpec::Parse("linear"), train, FirstN(train->Size()), 1);
        D2dTrainTask task;
        task.epochs = 10;
        l->Train(task, Callback<void, const D2dTrainResult&>());
        Simulator::Run();
        Simulator::Destroy();
        const auto w = l->GetParameters(); // weight [1 x 2], then bias
        NS_TEST_ASSERT_MSG_EQ(w.size(), 3u, "two weights and a bias");
        NS_TEST_ASSERT_MSG_EQ_TOL(w[0], 0.5, 0.1, "theta_1");
        NS_TEST_ASSERT_MSG_EQ_TOL(w[1], 0.8, 0.1, "theta_2");
        NS_TEST_ASSERT_MSG_EQ_TOL(w[2], -0.3, 0.1, "theta_0");
        const auto r = l->Evaluate(*test);
        // The best MSE is the noise variance 0.8^2 = 0.64.
        NS_TEST_ASSERT_MSG_EQ_TOL(r.loss, 0.64, 0.064, "test MSE near the noise variance");
    }
};

/** A finished job does not keep its learner (and the training set) alive. */
class LifetimeTestCase : public TestCase
{
  public:
    LifetimeTestCase()
        : TestCase("A learner whose jobs completed is destroyed with its training set")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t workersBefore = D2dTorchRuntime::GetWorkers();
        for (uint32_t workers : {0u, 2u})
        {
            for (bool predict : {false, true})
            {
                D2dTorchRuntime::SetWorkers(workers);
                auto train = D2dSyntheticData::Example1(-1, 64, 1);
                std::shared_ptr<const D2dDataset> predictOn = D2dSyntheticData::Example1(-1, 8, 2);
                std::weak_ptr<const D2dDataset> watchTrain = train;
                std::weak_ptr<const D2dDataset> watchPredict = predictOn;
                auto l = CreateObject<D2dLearner>();
                l->Setup(0, D2dModelSpec::Parse("linear"), train, FirstN(train->Size()), 1);
                train.reset(); // the learner is the only owner now
                D2dTrainTask task;
                task.predictOn = predict ? predictOn : nullptr;
                predictOn.reset();
                task.epochs = 1;
                bool done = false;
                l->Train(task, Callback<void, const D2dTrainResult&>([&](const D2dTrainResult&) {
                             done = true;
                         }));
                task = D2dTrainTask();
                Simulator::Run();
                Simulator::Destroy();
                const std::string which = std::string(predict ? "prediction" : "training") +
                                          " job, " + std::to_string(workers) + " workers";
                NS_TEST_ASSERT_MSG_EQ(done, true, which + ": the job completed");
                NS_TEST_ASSERT_MSG_EQ(watchTrain.expired(),
                                      false,
                                      which + ": learner holds its data");
                l->Dispose();
                l = nullptr;
                NS_TEST_EXPECT_MSG_EQ(watchTrain.expired(),
                                      true,
                                      which + ": the training set went with the learner");
                NS_TEST_EXPECT_MSG_EQ(watchPredict.expired(),
                                      true,
                                      which + ": the prediction set went with the job");
            }
        }
        D2dTorchRuntime::SetWorkers(workersBefore);
    }
};

/** Determinism with concurrent workers. */
class DeterminismTestCase : public TestCase
{
  public:
    DeterminismTestCase()
        : TestCase("Same seed and id, same weights after training on 2 workers; other id, "
                   "other weights")
    {
    }

  private:
    void DoRun() override
    {
        D2dTorchRuntime::SetWorkers(2);
        auto data = SmallMnist();
        auto run = [&](uint32_t others) {
            std::vector<Ptr<D2dLearner>> ls;
            for (uint32_t i = 0; i <= others; ++i)
            {
                auto l = CreateObject<D2dLearner>();
                l->Setup(i == 0 ? 5 : 100 + i, D2dModelSpec::Parse("mlp:32"), data, FirstN(200), 9);
                D2dTrainTask task;
                task.epochs = 3;
                l->Train(task, Callback<void, const D2dTrainResult&>());
                ls.push_back(l);
            }
            Simulator::Run();
            Simulator::Destroy();
            return ls[0]->GetParameters();
        };
        const auto alone = run(0);
        const auto crowded = run(5); // 5 other jobs run concurrently on the pool
        NS_TEST_ASSERT_MSG_EQ((alone == crowded), true, "bitwise equal");
        auto other = CreateObject<D2dLearner>();
        other->Setup(6, D2dModelSpec::Parse("mlp:32"), data, FirstN(200), 9);
        auto same = CreateObject<D2dLearner>();
        same->Setup(5, D2dModelSpec::Parse("mlp:32"), data, FirstN(200), 9);
        NS_TEST_ASSERT_MSG_EQ((other->GetParameters() != same->GetParameters()),
                              true,
                              "another id draws other initial weights");
    }
};

/** \return true if the two vectors hold the same bits */
bool
SameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

/** Flat storage: bit-for-bit round trips, sharing, release, no module per device. */
class FlatStorageTestCase : public TestCase
{
  public:
    FlatStorageTestCase()
        : TestCase("Weights round-trip bit for bit through the flat vector and a job's module; "
                   "no LibTorch module per learner")
    {
    }

  private:
    void DoRun() override
    {
        D2dTorchRuntime::SetWorkers(2);
        auto data = SmallMnist();
        // An architecture no other test uses: its modules are made here.
        const auto spec = D2dModelSpec::Parse("mlp:17x3");
        const uint64_t before = D2dLearner::GetLiveModules();
        std::vector<Ptr<D2dLearner>> ls;
        for (uint32_t i = 0; i < 60; ++i)
        {
            auto l = CreateObject<D2dLearner>();
            l->Setup(i, spec, data, FirstN(20), 4);
            ls.push_back(l);
        }
        const uint64_t p = (784 + 1) * 17 + (17 + 1) * 3 + (3 + 1) * 10;
        NS_TEST_ASSERT_MSG_EQ(ls[0]->GetNParameters(), p, "parameters of 784-17-3-10");
        // Setup made this thread's module of the architecture, and no other.
        NS_TEST_ASSERT_MSG_EQ(D2dLearner::GetLiveModules(), before + 1, "one module for 60");

        // Odd values, then a ramp: set, read back, bit for bit.
        std::vector<float> values(p);
        for (uint64_t j = 0; j < p; ++j)
        {
            values[j] = static_cast<float>(j) * 1e-3f - 1.0f;
        }
        values[0] = -0.0f;
        values[1] = std::numeric_limits<float>::denorm_min();
        values[2] = std::numeric_limits<float>::infinity();
        values[3] = -std::numeric_limits<float>::infinity();
        uint32_t nanBits = 0x7FC01234; // a quiet NaN with a payload
        std::memcpy(&values[4], &nanBits, sizeof(float));
        values[5] = 3.4028235e38f;
        ls[0]->SetParameters(values);
        NS_TEST_ASSERT_MSG_EQ(SameBits(ls[0]->GetParameters(), values), true, "flat round trip");

        // Shared: held as given, no copy; a job replaces it and leaves it untouched.
        auto shared = std::make_shared<const std::vector<float>>(values);
        ls[1]->SetParameters(shared);
        NS_TEST_ASSERT_MSG_EQ((ls[1]->GetSharedParameters() == shared), true, "no copy");

        // Through a job's module: a job of no steps copies the weights in and out.
        D2dTrainTask none;
        none.epochs = 0;
        ls[0]->Train(none, Callback<void, const D2dTrainResult&>());
        ls[1]->Train(none, Callback<void, const D2dTrainResult&>());
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(SameBits(ls[0]->GetParameters(), values), true, "module round trip");
        NS_TEST_ASSERT_MSG_EQ(SameBits(*shared, values), true, "the shared vector unchanged");
        NS_TEST_ASSERT_MSG_EQ((ls[1]->GetSharedParameters() != shared),
                              true,
                              "a job's result is a new vector (copy-on-write)");

        // Every learner trains once (initial weights drawn at the job): at most one module
        // per worker thread is added.
        D2dTrainTask one;
        one.epochs = 1;
        for (uint32_t i = 2; i < ls.size(); ++i)
        {
            ls[i]->Train(one, Callback<void, const D2dTrainResult&>());
        }
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_LT_OR_EQ(D2dLearner::GetLiveModules(),
                                    before + 1 + D2dTorchRuntime::GetWorkers(),
                                    "modules: one per thread and architecture, not per learner");

        // Initial weights drawn at the first job equal those drawn on demand (the generator's
        // first draws either way), and training changes them.
        auto fresh = CreateObject<D2dLearner>();
        fresh->Setup(7, spec, data, FirstN(20), 4);
        auto sameId = CreateObject<D2dLearner>();
        sameId->Setup(7, spec, data, FirstN(20), 4);
        sameId->Train(none, Callback<void, const D2dTrainResult&>());
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(SameBits(fresh->GetParameters(), sameId->GetParameters()),
                              true,
                              "initial weights drawn lazily, identically");
        NS_TEST_ASSERT_MSG_EQ(SameBits(ls[7]->GetParameters(), fresh->GetParameters()),
                              false,
                              "device 7 trained");

        // Release: no weights held; SetParameters restores them.
        ls[2]->ReleaseParameters();
        NS_TEST_ASSERT_MSG_EQ(ls[2]->HoldsParameters(), false, "released");
        ls[2]->SetParameters(shared);
        NS_TEST_ASSERT_MSG_EQ(ls[2]->HoldsParameters(), true, "set again");
        NS_TEST_ASSERT_MSG_EQ(fresh->HoldsParameters(), true, "a fresh learner will draw");
    }
};

/** KeepOptimizerState: the state kept as flat vectors continues bit for bit. */
class KeptOptimizerStateTestCase : public TestCase
{
  public:
    KeptOptimizerStateTestCase()
        : TestCase("Optimizer state kept between jobs: 2 jobs of 1 epoch = 1 job of 2 epochs, "
                   "bit for bit (SGD with momentum, Adam)")
    {
    }

  private:
    void DoRun() override
    {
        D2dTorchRuntime::SetWorkers(2);
        auto data = SmallMnist();
        const auto spec = D2dModelSpec::Parse("mlp:16");
        // Jobs of the given epochs, one after another, on a learner of device 3.
        auto run = [&](const std::string& optimizer, bool keep, std::vector<uint32_t> jobs) {
            auto l = CreateObject<D2dLearner>();
            l->SetAttribute("Optimizer", StringValue(optimizer));
            l->SetAttribute("Momentum", DoubleValue(0.9));
            l->SetAttribute("LearningRate", DoubleValue(optimizer == "adam" ? 0.01 : 0.05));
            l->SetAttribute("KeepOptimizerState", BooleanValue(keep));
            l->Setup(3, spec, data, FirstN(96), 11);
            for (auto epochs : jobs)
            {
                D2dTrainTask task;
                task.epochs = epochs;
                l->Train(task, Callback<void, const D2dTrainResult&>());
                Simulator::Run();
            }
            Simulator::Destroy();
            return l->GetParameters();
        };
        for (const std::string optimizer : {"sgd", "adam"})
        {
            const auto once = run(optimizer, true, {2});
            const auto twice = run(optimizer, true, {1, 1});
            const auto fresh = run(optimizer, false, {1, 1});
            NS_TEST_ASSERT_MSG_EQ(SameBits(once, twice), true, optimizer << ": state kept");
            NS_TEST_ASSERT_MSG_EQ(SameBits(once, fresh),
                                  false,
                                  optimizer << ": a fresh optimizer per job differs");
        }
    }
};

/**
 * The triplet encoder (Wagle et al. 2025, eq. 4; FaceNet's loss, Schroff et al. 2015):
 * size and FLOPs against hand formulas, a job lasts its modelled work, the same seed and
 * id give the same bytes, and linear evaluation scores a labelled test set.
 */
class TripletLearnerTestCase : public TestCase
{
  public:
    TripletLearnerTestCase()
        : TestCase("Triplet encoder: size, FLOPs, simulated duration, determinism, linear "
                   "evaluation")
    {
    }

  private:
    void DoRun() override
    {
        D2dTorchRuntime::SetWorkers(2);
        auto data = SmallMnist();
        // conv 3x3 'same' + 2x2 pooling three times: 28x28x8, 14x14x16, 7x7x16 -> 3x3x16,
        // then 144 -> 8: (9+1)8 + (72+1)16 + (144+1)16 + (144+1)8 = 4728 parameters.
        const double params = 80 + 1168 + 2320 + 1160;
        const double forward = 2.0 * 9 * 8 * 784 + 2.0 * 8 * 9 * 16 * 196 + 2.0 * 16 * 9 * 16 * 49 +
                               2.0 * 144 * 8; // 792576
        // Three passes (anchor, positive, negative) forward and backward, plus the
        // positive's rotation (12 per pixel) and blur (50 per pixel).
        const double perSample = 3 * 3 * forward + 62.0 * 784;
        const auto spec = D2dModelSpec::Parse("triplet");
        NS_TEST_ASSERT_MSG_EQ_TOL(spec.margin, 0.2, 1e-15, "FaceNet's default margin");
        NS_TEST_ASSERT_MSG_EQ(D2dModelSpec::Parse("triplet:0.5").ToString(),
                              "triplet:0.5",
                              "round trip of a margin");
        NodeContainer nodes = MakeTestNodesOnLine(2, 1.0);
        D2dHelper d2d;
        d2d.SetComputeAttribute("FlopsPerSecond", DoubleValue(1e9));
        d2d.SetInitialEnergyJ(1e6);
        d2d.Install(nodes);
        std::vector<Ptr<D2dLearner>> learners;
        for (uint32_t i = 0; i < 2; ++i)
        {
            auto l = CreateObject<D2dLearner>();
            l->Setup(0, spec, data, FirstN(64), 1); // the same id and seed: the same work
            l->SetComputeModel(D2dHelper::GetComputeModel(nodes.Get(i)));
            learners.push_back(l);
        }
        NS_TEST_ASSERT_MSG_EQ(learners[0]->GetNParameters(), params, "parameters");
        NS_TEST_ASSERT_MSG_EQ_TOL(learners[0]->GetTrainingFlopsPerSample(),
                                  perSample,
                                  1e-6,
                                  "FLOPs per training sample");
        const auto before = learners[0]->GetParameters();
        D2dTrainTask task;
        task.epochs = 2;
        std::vector<double> doneAt(2, -1);
        Simulator::Schedule(Seconds(1), [&]() {
            for (uint32_t i = 0; i < 2; ++i)
            {
                learners[i]->Train(
                    task,
                    Callback<void, const D2dTrainResult&>(
                        [this, &doneAt, i](const D2dTrainResult& r) {
                            doneAt[i] = Simulator::Now().GetSeconds();
                            NS_TEST_EXPECT_MSG_EQ(r.samples, 128u, "samples");
                            NS_TEST_EXPECT_MSG_EQ(r.steps, 4u, "2 steps/epoch");
                            NS_TEST_EXPECT_MSG_EQ(std::isfinite(r.meanLoss), true, "finite loss");
                        }));
            }
        });
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ_TOL(doneAt[0],
                                  1 + 128 * perSample / 1e9,
                                  1e-9,
                                  "duration = FLOPs / FLOP/s");
        const auto after = learners[0]->GetParameters();
        NS_TEST_ASSERT_MSG_EQ((after != before), true, "it trained");
        NS_TEST_ASSERT_MSG_EQ((after == learners[1]->GetParameters()),
                              true,
                              "same seed and id, same bytes");
        // Linear evaluation (here trained and scored on the same 500 images: only its
        // determinism is checked; its accuracy is the fedavg-triplet CLI test's): the same
        // weights give the same figures, through either Evaluate.
        const auto r = learners[0]->Evaluate(*data);
        const auto r2 = learners[1]->Evaluate(after, *data);
        NS_TEST_ASSERT_MSG_EQ(r.samples, data->Size(), "every test sample");
        NS_TEST_ASSERT_MSG_EQ((r.accuracy >= 0 && r.accuracy <= 1), true, "an accuracy");
        NS_TEST_ASSERT_MSG_EQ(r.accuracy, r2.accuracy, "deterministic accuracy");
        NS_TEST_ASSERT_MSG_EQ(r.loss, r2.loss, "deterministic loss");
    }
};

class D2dLearnerTestSuite : public TestSuite
{
  public:
    D2dLearnerTestSuite()
        : TestSuite("d2d-learner")
    {
        AddTestCase(new ModelMessageTestCase);
        AddTestCase(new ModelSizeTestCase);
        AddTestCase(new TrainingTimeTestCase);
        AddTestCase(new RegressionTestCase);
        AddTestCase(new DeterminismTestCase);
        AddTestCase(new FlatStorageTestCase);
        AddTestCase(new KeptOptimizerStateTestCase);
        AddTestCase(new LifetimeTestCase);
        AddTestCase(new TripletLearnerTestCase);
    }
};

static D2dLearnerTestSuite g_d2dLearnerTestSuite;

} // namespace

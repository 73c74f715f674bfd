/*
 * d2dlearn example: a channel built from an RSS matrix file.
 *
 * MatrixRssModel takes the received signal strengths from an N x N matrix W in watts
 * (row i, column j: the RSS at receiver i of transmitter j; 0 means no link), read from
 * a CSV file by MatrixRssModel::ReadCsv (the format of d2d-exchange's --rssFile). This
 * program writes a small matrix to a temporary file, reads it back, builds the D2D
 * channel on it (D2dHelper::SetRssModel) and prints, for every link, W_ij and the drop
 * probability the channel uses, eq. (18) of the channel model (D2dChannel),
 *     P_D(i, j) = 1 - exp(-(2^r - 1) sigma^2 / W_ij)    (1 when W_ij = 0),
 * next to that formula evaluated here. It exits with status 1 if they differ.
 *
 *   build/bin/rss-matrix [--spectralEfficiency=2] [--noisePowerW=1e-13]
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/core-module.h"
#include "ns3/d2dlearn-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    double r = 2.0;        // spectral efficiency r, bit/s/Hz
    double sigma2 = 1e-13; // noise power sigma^2, W

    CommandLine cmd(__FILE__);
    cmd.AddValue("spectralEfficiency", "Spectral efficiency r, bit/s/Hz", r);
    cmd.AddValue("noisePowerW", "Noise power sigma^2, W", sigma2);
    cmd.Parse(argc, argv);

    // A 4-device matrix, not symmetric (W_ij is the RSS at i of j); devices 0 and 3 do not
    // hear each other. The diagonal is ignored.
    const char* text = "0,2e-12,1e-12,0\n"
                       "1.5e-12,0,5e-13,3e-13\n"
                       "1e-12,5e-13,0,1e-13\n"
                       "0,3e-13,2e-13,0\n";
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() /
        ("d2dlearn-rss-matrix-" + std::to_string(::getpid()) + ".csv");
    std::ofstream(file) << text;
    std::vector<std::vector<double>> w = MatrixRssModel::ReadCsv(file.string());
    std::filesystem::remove(file);

    auto rss = CreateObject<MatrixRssModel>();
    rss->SetMatrix(w);
    const uint32_t n = rss->GetN();
    std::printf("read a %u x %u matrix; r = %g bit/s/Hz, sigma^2 = %g W\n", n, n, r, sigma2);

    NodeContainer nodes; // no positions needed: the RSS comes from the matrix
    nodes.Create(n);
    D2dHelper d2d;
    d2d.SetChannelAttribute("SpectralEfficiency", DoubleValue(r));
    d2d.SetChannelAttribute("NoisePowerW", DoubleValue(sigma2));
    d2d.SetRssModel(rss);
    Ptr<D2dChannel> channel = d2d.Install(nodes);

    double maxError = 0.0;
    std::printf("rx tx W_ij_W P_D_channel P_D_formula\n");
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (i == j)
            {
                continue;
            }
            const double pd = channel->GetDropProbability(i, j);
            const double formula =
                w[i][j] > 0 ? 1.0 - std::exp(-(std::pow(2.0, r) - 1.0) * sigma2 / w[i][j]) : 1.0;
            maxError = std::max(maxError, std::abs(pd - formula));
            std::printf("%u %u %.6e %.12f %.12f\n", i, j, channel->GetRssW(i, j), pd, formula);
        }
    }
    std::printf("max |P_D_channel - P_D_formula| = %.3e\n", maxError);
    Simulator::Destroy();
    return maxError <= 1e-12 ? 0 : 1;
}

/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef D2D_STREAMING_QUANTILE_H
#define D2D_STREAMING_QUANTILE_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief One quantile of a stream in bounded memory: exact while at most a capacity of values
 * has come (Hyndman and Fan's type 7, linear interpolation between order statistics, numpy's
 * default), then the P-squared estimate of Jain and Chlamtac, "The P^2 Algorithm for Dynamic
 * Calculation of Quantiles and Histograms Without Storing Observations" (CACM, 1985): five
 * markers whose heights follow the quantile by piecewise-parabolic interpolation. The switch
 * starts the markers from the exact sample (heights the sample's order statistics at ranks
 * 1, 1 + (n-1) p/2, 1 + (n-1) p, 1 + (n-1) (1+p)/2, n, rounded; desired positions exact), so
 * the estimate continues from the exact value. Memory: the capacity's values, then 5 + 5 + 5
 * numbers.
 */
class D2dStreamingQuantile
{
  public:
    /**
     * \param p the quantile, in (0, 1)
     * \param exactCapacity values kept exactly before switching to P-squared (at least 5)
     */
    explicit D2dStreamingQuantile(double p, std::size_t exactCapacity = 4096);

    /** \param x one value of the stream */
    void Add(double x);
    /** \return the values added */
    uint64_t Count() const;
    /** \return whether Value() is exact (at most the capacity of values came) */
    bool IsExact() const;
    /** \return the quantile: exact (type 7) or the P-squared estimate; 0 with no value */
    double Value() const;

    /**
     * \brief Percentile by linear interpolation between order statistics (Hyndman and Fan
     * 1996, type 7): with the n values sorted x_0 <= ... <= x_{n-1}, h = (n - 1) q,
     * x_floor(h) + (h - floor(h)) (x_floor(h)+1 - x_floor(h)).
     * \param values the values (not empty; copied and sorted)
     * \param q the quantile, 0 to 1
     * \return the percentile
     */
    static double Type7(std::vector<double> values, double q);

  private:
    /** \brief Switch from the exact sample to the P-squared markers. */
    void StartMarkers();
    /** \return marker i's height moved by d (+1 or -1), parabolic formula (eq. of the paper)
     * \param i marker 1..3 \param d the move */
    double Parabolic(int i, double d) const;
    /** \return marker i's height moved by d, linear formula \param i marker \param d move */
    double Linear(int i, int d) const;

    double m_p;                      //!< the quantile
    std::size_t m_capacity;          //!< exact values kept at most
    uint64_t m_count{0};             //!< values added
    std::vector<double> m_values;    //!< the exact sample (until the switch)
    std::array<double, 5> m_height;  //!< q_i: marker heights
    std::array<double, 5> m_pos;     //!< n_i: marker positions (1-based ranks)
    std::array<double, 5> m_desired; //!< n'_i: desired positions
    std::array<double, 5> m_step;    //!< dn'_i: 0, p/2, p, (1+p)/2, 1
};

} // namespace ns3

#endif /* D2D_STREAMING_QUANTILE_H */

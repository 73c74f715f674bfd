/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_CSV_FILE_H
#define D2D_CSV_FILE_H

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief A scenario's per-device CSV input (--deviceProfiles, --availabilityFile): checked
 * before it is opened (D2dInputFile: a FIFO would block, /dev/zero never end), read line by
 * line into cells (D2dText::SplitCsvCells, blank lines skipped), every error one line
 * naming the flag, the file and the line.
 */
class D2dCsvFile
{
  public:
    /**
     * \brief Check and open the file.
     * \param flag the flag that names it, e.g. "--deviceProfiles"
     * \param path the file
     * \param accepted what it should hold, for the errors
     * \throw std::invalid_argument or std::runtime_error: one line naming the flag and file
     */
    D2dCsvFile(const std::string& flag, const std::string& path, const std::string& accepted);

    /**
     * \brief The next line that is not blank.
     * \param cells its cells
     * \return false at the end of the file
     */
    bool Next(std::vector<std::string>& cells);

    /**
     * \brief Refuse the current line.
     * \param what what is wrong with it
     * \throw std::runtime_error "FLAG=PATH: line N: what"
     */
    [[noreturn]] void Fail(const std::string& what) const;

    /**
     * \param cell a cell of the current line that names a device
     * \param nDevices the devices of the run
     * \return the device (refused with Fail() unless an integer in 0..nDevices-1)
     */
    uint32_t Device(const std::string& cell, uint32_t nDevices) const;

    /** \return "FLAG=PATH", how the errors name the file */
    const std::string& Name() const;

  private:
    std::string m_name; //!< "FLAG=PATH"
    std::ifstream m_in; //!< the file
    uint64_t m_line{0}; //!< the current line's number (1: the header)
};

} // namespace ns3

#endif /* D2D_CSV_FILE_H */

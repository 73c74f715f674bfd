/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_RUN_RECORD_H
#define D2D_RUN_RECORD_H

#include "ns3/d2d-run-summary.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup d2dlearn
 * \brief What run.json says of a run besides its trace files: the parameters it was given
 * (a parameter's JSON type follows the type it was added with; AddAttributes() writes
 * numbers and booleans bare, other attributes as strings) and its "summary" (a
 * D2dRunSummary of every row written, with the run's headline results). Part of
 * D2dTraceHelper, which forwards its AddParameter and AddResult calls here and feeds the
 * summary its rows.
 */
class D2dRunRecord
{
  public:
    /**
     * \brief Record the program's arguments (those after its name, joined by single spaces)
     * as the text parameter "commandLine".
     * \param argc argument count, as main() received it
     * \param argv arguments, as main() received them
     */
    void AddCommandLine(int argc, char** argv);
    /** \param name parameter name \param value its value, written as a JSON string */
    void AddParameter(const std::string& name, const std::string& value);
    /**
     * \param name parameter name \param value its value, written as a JSON string (without
     * this overload a string literal would convert to bool)
     */
    void AddParameter(const std::string& name, const char* value);
    /** \param name parameter name \param value its value, written as true or false */
    void AddParameter(const std::string& name, bool value);
    /**
     * \param name parameter name
     * \param value its value: a bare JSON number in the shortest form that reads back as the
     * same double (null if not finite)
     */
    void AddParameter(const std::string& name, double value);

    /**
     * \tparam T an integer type other than bool
     * \param name parameter name \param value its value, a bare JSON number
     */
    template <typename T,
              typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>>
    void AddParameter(const std::string& name, T value)
    {
        m_parameters.emplace_back(name, std::to_string(value));
    }

    /** \param name parameter name \param json its value, valid JSON */
    void AddParameterJson(const std::string& name, const std::string& json);
    /** \param name parameter name \param values numbers (non-finite ones as null) */
    void AddParameterArray(const std::string& name, const std::vector<double>& values);
    /** \param name parameter name \param values integers (e.g. device indices) */
    void AddParameterArray(const std::string& name, const std::vector<uint32_t>& values);
    /**
     * \brief Record every attribute of an object ("Class::Attribute"): Double, Uinteger,
     * Integer and Boolean attributes as bare JSON values, others as strings (pointers left
     * out).
     * \param object the object
     */
    void AddAttributes(Ptr<Object> object);

    /** \return the summary, fed every row written and the run's results */
    D2dRunSummary& Summary();

    /**
     * \brief run.json's text: its opening keys as given, then "parameters" and "summary".
     * \param head the keys before "parameters" (each line "  \"key\": value,\n"), after "{\n"
     * \param simulatedSeconds the simulated time (s)
     * \param wallSeconds the wall-clock duration of the run (s)
     * \return the document
     */
    std::string ToJson(const std::string& head, double simulatedSeconds, double wallSeconds) const;

  private:
    /** (name, value as a JSON literal), in the order added */
    std::vector<std::pair<std::string, std::string>> m_parameters;
    D2dRunSummary m_summary; //!< run.json's "summary", fed every row
};

} // namespace ns3

#endif /* D2D_RUN_RECORD_H */

/*
 * d2dlearn: collaborative learning over D2D wireless networks (ns-3 module).
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef D2D_TYPE_CHOICES_H
#define D2D_TYPE_CHOICES_H

#include <string>
#include <vector>

namespace ns3
{

class D2dScenarioFlags;

/**
 * \ingroup d2dlearn
 * \brief The values a text flag accepts, each naming the ns-3 class it selects (e.g.
 * --algorithm=krum: "ns3::D2dFedAvg"), declared once: the flag's Choices() (its --PrintHelp
 * text and its one-line error) come from GetNames(), the class from GetTypeName().
 *
 * \code
 *   static const D2dTypeChoice protocols("algorithm",
 *                                        {{"consensus", "ns3::D2dPredictionConsensus"},
 *                                         {"local", "ns3::D2dLocalTraining"}});
 *   flags.Add("algorithm", "The protocol", algorithm).Choices(protocols.GetNames());
 *   ...
 *   helper.SetProtocolType(protocols.GetTypeName(algorithm));
 * \endcode
 */
class D2dTypeChoice
{
  public:
    /** One accepted value. */
    struct Option
    {
        std::string name;     //!< the flag's value, e.g. "fedprox"
        std::string typeName; //!< the TypeId name it selects, e.g. "ns3::D2dFedAvg"
    };

    /**
     * \param flag the flag's name, without --
     * \param options the accepted values, in the order --PrintHelp and the errors list them
     *        (several may select the same class)
     */
    D2dTypeChoice(std::string flag, std::vector<Option> options);

    /** \return the flag's name, without -- */
    const std::string& GetFlag() const;

    /** \return the accepted values, in order (for D2dScenarioFlags::Flag::Choices()) */
    std::vector<std::string> GetNames() const;

    /**
     * \param value the flag's value
     * \return the TypeId name value selects
     * \throws std::invalid_argument "--flag=value is not accepted (a, b or c)" (one line,
     *         the form of D2dScenarioSupport::CheckChoice()) for another value
     */
    const std::string& GetTypeName(const std::string& value) const;
    /**
     * \brief Tell the flag scope which class each value makes (D2dScenarioFlags::AddChoice):
     * a flag that acts through one of them then acts only with the values that make it.
     * \param flags the program's flags
     */
    void AddChoices(D2dScenarioFlags& flags) const;

  private:
    std::string m_flag;            //!< the flag's name
    std::vector<Option> m_options; //!< the accepted values, in order
};

} // namespace ns3

#endif /* D2D_TYPE_CHOICES_H */

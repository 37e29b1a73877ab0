#include "script.hpp"

#include <fstream>
#include <map>
#include <sstream>

#include "pivot/error.hpp"

namespace pivot::viewer {

std::vector<ScriptAction> read_script(const std::string& path) {
  // verb => number of arguments
  static const std::map<std::string, size_t> kArity = {
      {"load", 1},  {"set", 2},  {"play", 0},       {"pause", 0},  {"step", 1},
      {"wait", 1},  {"record", 1}, {"screenshot", 1}, {"overlay", 2}, {"quit", 0}};
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, 0, "cannot open script");
  std::vector<ScriptAction> actions;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    const size_t hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    std::istringstream words(text);
    ScriptAction action;
    action.line = line;
    if (!(words >> action.verb)) continue;
    for (std::string w; words >> w;) action.args.push_back(w);
    const auto it = kArity.find(action.verb);
    if (it == kArity.end()) throw InputError(path, line, 0, "unknown action '" + action.verb + "'");
    // "record start FILE" is the one action with an optional second word.
    const size_t expected = action.verb == "record" && !action.args.empty() && action.args[0] == "start"
                                ? 2
                                : it->second;
    if (action.args.size() != expected) {
      throw InputError(path, line, 0,
                       "'" + action.verb + "' takes " + std::to_string(expected) + " argument" +
                           (expected == 1 ? "" : "s") + ", found " + std::to_string(action.args.size()));
    }
    actions.push_back(action);
  }
  return actions;
}

}  // namespace pivot::viewer

#include "script.hpp"

#include <fstream>
#include <map>
#include <sstream>

#include "pivot/error.hpp"

namespace pivot::viewer {

namespace {

// Words an action takes after its verb. Verbs with subcommands are keyed "verb sub"; the
// count includes the subcommand. A verb listed both ways ("drag") takes the plain form
// unless its first word is a listed subcommand.
const std::map<std::string, size_t>& arity() {
  static const std::map<std::string, size_t> table = {
      {"load", 1},         {"set", 2},          {"play", 0},         {"pause", 0},
      {"step", 1},         {"wait", 1},         {"screenshot", 1},   {"overlay", 2},
      {"quit", 0},         {"drag", 4},         {"drag off", 1},     {"nudge", 1},
      {"print state", 1},  {"print panels", 1}, {"print screen", 2}, {"print forces", 1},
      {"contact", 1},      {"plot export", 2},  {"plot show", 1},    {"plot hide", 1},
      {"plot body", 2},    {"plot window", 2},  {"alpha", 2},        {"section", 2},
      {"section off", 1},  {"record start", 2}, {"record stop", 1},  {"video start", 2},
      {"video stop", 1},   {"replay open", 2},  {"replay frame", 2}, {"replay play", 1},
      {"replay pause", 1}, {"replay close", 1}};
  return table;
}

// The forms of a verb, for the error message: "'record' takes: start FILE | stop".
std::string forms_of(const std::string& verb) {
  std::string forms;
  for (const auto& [key, count] : arity()) {
    if (key.rfind(verb, 0) != 0 || (key.size() > verb.size() && key[verb.size()] != ' ')) continue;
    if (!forms.empty()) forms += ", ";
    forms += "'" + key + "' with " + std::to_string(count) + " word" + (count == 1 ? "" : "s");
  }
  return forms;
}

}  // namespace

std::vector<ScriptAction> read_script(const std::string& path) {
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
    const auto& table = arity();
    auto it = action.args.empty() ? table.end() : table.find(action.verb + " " + action.args[0]);
    if (it == table.end()) it = table.find(action.verb);
    if (it == table.end()) {
      if (forms_of(action.verb).empty()) {
        throw InputError(path, line, 0, "unknown action '" + action.verb + "'");
      }
      throw InputError(path, line, 0, "'" + action.verb + "' takes " + forms_of(action.verb));
    }
    if (action.args.size() != it->second) {
      throw InputError(path, line, 0,
                       "'" + it->first + "' takes " + std::to_string(it->second) + " word" +
                           (it->second == 1 ? "" : "s") + ", found " +
                           std::to_string(action.args.size()));
    }
    actions.push_back(action);
  }
  return actions;
}

}  // namespace pivot::viewer

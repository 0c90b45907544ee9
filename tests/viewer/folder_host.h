// A host that answers stages' fetches from a folder standing for the site (its assets/), after
// the call that asked, as the browser does; chosen URLs answer "HTTP 404 Not Found" instead.
#pragma once

#include <deque>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/common/json.h"
#include "viewer/stage_hub.h"

namespace md5stage::viewer::test {

class FolderHost : public HubHost, public StageHost {
 public:
  // site: the folder a URL "assets/x" is read from as site/assets/x.
  explicit FolderHost(std::string site) : site_(std::move(site)) {}

  void Refuse(const std::string& url) { refused_.insert(url); }

  // Hub stages.
  bool Fetch(int stage, const FetchRequest& request) override {
    queue_.push_back({stage, request});
    return true;
  }
  void Event(int stage, const std::string& name, const JsonValue& detail) override {
    events.push_back({stage, name, detail});
  }
  // A stage of its own.
  bool Fetch(const FetchRequest& request) override { return Fetch(-1, request); }
  void Event(const std::string& name, const JsonValue& detail) override { Event(-1, name, detail); }

  // Answers every request (and those the answers lead to) until none is left.
  void Pump(StageHub* hub, Stage* alone = nullptr) {
    while (!queue_.empty()) {
      const auto [stage, request] = queue_.front();
      queue_.pop_front();
      fetched.push_back(request.url);
      Stage* target = stage < 0 ? alone : hub->Find(stage);
      if (target == nullptr) continue;
      std::string bytes;
      const bool ok = !refused_.count(request.url) && Read(request.url, &bytes);
      target->OnFetched(request.request, ok, std::move(bytes), ok ? "" : "HTTP 404 Not Found");
    }
  }
  void Pump(Stage& stage) { Pump(nullptr, &stage); }

  // The last "sceneOpened" detail of a stage (-1: the stage of its own), or null.
  JsonValue LastOpened(int stage = -1) const {
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      if (it->stage == stage && it->name == "sceneOpened") return it->detail;
    }
    return JsonValue();
  }

  struct Recorded {
    int stage;
    std::string name;
    JsonValue detail;
  };
  std::vector<Recorded> events;
  std::vector<std::string> fetched;

 private:
  bool Read(const std::string& url, std::string* bytes) const {
    if (url.rfind("https://", 0) == 0) return false;
    std::ifstream in(site_ + "/" + url, std::ios::binary);
    if (!in) return false;
    std::ostringstream out;
    out << in.rdbuf();
    *bytes = out.str();
    return true;
  }

  std::string site_;
  std::set<std::string> refused_;
  std::deque<std::pair<int, FetchRequest>> queue_;
};

}  // namespace md5stage::viewer::test

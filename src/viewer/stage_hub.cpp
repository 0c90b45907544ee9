#include "viewer/stage_hub.h"

#include "viewer/json_util.h"

namespace md5stage::viewer {

// Hands a stage's requests to the hub's host with the stage's id.
class StageHub::StageHostForId : public StageHost {
 public:
  StageHostForId(HubHost* host, int id) : host_(host), id_(id) {}
  bool Fetch(const FetchRequest& request) override {
    return host_ != nullptr && host_->Fetch(id_, request);
  }
  void OpenFilePicker() override {
    if (host_) host_->OpenFilePicker(id_);
  }
  void PageAction(const std::string& action) override {
    if (host_) host_->PageAction(id_, action);
  }
  void DownloadScreenshot() override {
    if (host_) host_->DownloadScreenshot(id_);
  }
  void Event(const std::string& name, const JsonValue& detail) override {
    if (host_) host_->Event(id_, name, detail);
  }
  void DownloadFile(const std::string& name, const std::string& mime_type,
                    const std::string& bytes) override {
    if (host_) host_->DownloadFile(id_, name, mime_type, bytes);
  }

 private:
  HubHost* host_;
  int id_;
};

StageHub::StageHub(RenderBackend* device, HubHost* host) : gpu_(device), host_(host) {
  CreateStage();
}

StageHub::~StageHub() {
  // Stages first: their libraries give their GPU objects back through gpu_.
  stages_.clear();
}

int StageHub::CreateStage() {
  if (static_cast<int>(stages_.size()) >= kMaxStages) return -1;
  const int id = next_id_++;
  Entry entry;
  entry.host = std::make_unique<StageHostForId>(host_, id);
  entry.stage = std::make_unique<Stage>(&gpu_, entry.host.get(), &cache_);
  stages_.emplace(id, std::move(entry));
  return id;
}

bool StageHub::CloseStage(int id) {
  if (id == kMainStage) return false;
  return stages_.erase(id) > 0;
}

Stage* StageHub::Find(int id) {
  auto found = stages_.find(id);
  return found == stages_.end() ? nullptr : found->second.stage.get();
}

std::vector<int> StageHub::StageIds() const {
  std::vector<int> ids;
  for (const auto& entry : stages_) ids.push_back(entry.first);
  return ids;
}

void StageHub::RecreateGpuObjects(RenderBackend* device) {
  gpu_.ReplaceDevice(device);
  for (auto& entry : stages_) entry.second.stage->RecreateGpuObjects();
}

JsonValue StageHub::StagesJson() const {
  JsonValue reply = Reply(true);
  JsonArray ids;
  for (const auto& entry : stages_) ids.emplace_back(entry.first);
  reply.Set("stages", JsonValue(std::move(ids)));
  reply.Set("meshes", gpu_.mesh_count());
  reply.Set("textures", gpu_.texture_count());
  reply.Set("mesh_references", gpu_.mesh_references());
  reply.Set("texture_references", gpu_.texture_references());
  reply.Set("models_parsed", static_cast<double>(cache_.model_count()));
  reply.Set("animations_parsed", static_cast<double>(cache_.animation_count()));
  return reply;
}

JsonValue StageHub::Call(const JsonValue& command) {
  const JsonValue* stage_field = command.is_object() ? command.Find("stage") : nullptr;
  int id = kMainStage;
  if (stage_field != nullptr) {
    const double value = stage_field->is_number() ? stage_field->as_number() : -1.0;
    if (value < 0.0 || value != static_cast<double>(static_cast<int>(value)) ||
        Find(static_cast<int>(value)) == nullptr) {
      std::string open;
      for (const auto& entry : stages_)
        open += (open.empty() ? "" : ", ") + std::to_string(entry.first);
      return Failure("command.stage: expected the id of an open stage (" + open + "), found " +
                     DescribeJson(*stage_field));
    }
    id = static_cast<int>(value);
  }
  const JsonValue* name = command.is_object() ? command.Find("cmd") : nullptr;
  const std::string cmd = name && name->is_string() ? name->as_string() : "";
  if (cmd == "createStage") {
    const int created = CreateStage();
    if (created < 0)
      return Failure("createStage: " + std::to_string(kMaxStages) + " stages are open, the most");
    JsonValue reply = Reply(true);
    reply.Set("stage", created);
    return reply;
  }
  if (cmd == "closeStage") {
    const JsonValue* target = command.Find("id");
    const double value = target && target->is_number() ? target->as_number() : -1.0;
    const int target_id = static_cast<int>(value);
    if (value != static_cast<double>(target_id) || target_id == kMainStage ||
        Find(target_id) == nullptr) {
      return Failure(
          "closeStage.id: expected the id of an open stage other than 0, found " +
          (target ? DescribeJson(*target) : std::string("nothing (the field is missing)")));
    }
    CloseStage(target_id);
    return Reply(true);
  }
  if (cmd == "stages") return StagesJson();
  if (stage_field == nullptr) return Find(id)->Call(command);
  // The stage's own commands do not know the field: it is taken off before they read theirs.
  JsonValue forwarded = JsonValue::MakeObject();
  for (const JsonMember& member : command.as_object()) {
    if (member.first != "stage") forwarded.Set(member.first, member.second);
  }
  return Find(id)->Call(forwarded);
}

}  // namespace md5stage::viewer

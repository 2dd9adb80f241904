// `grbda view` as a subprocess: the scene written into the page (every body placed where forward
// kinematics puts it, rotors recognised, contacts on the feet, one pose per trajectory row) and
// the bad inputs (exit 2 naming the file and line). The page in a browser: tests/viewer/.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/mini_json.hpp"
#include "grbda/grbda.hpp"
#include "support/cli_runner.hpp"
#include "support/temp_dir.hpp"

#ifdef GRBDA_CLI_PATH

namespace {

using namespace grbda::testing;
using Args = std::vector<std::string>;
const std::string kArm = std::string(GRBDA_SOURCE_DIR) + "/tests/viewer/visual_arm.urdf";

// The scene JSON the page carries: "const scene = {...};" on the template's line.
Json sceneOfPage(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string page = text.str();
  const std::string start = "const scene = ";
  const size_t from = page.find(start);
  EXPECT_NE(from, std::string::npos) << path;
  if (from == std::string::npos) return Json{};
  const size_t to = page.find("};\n", from);
  return JsonReader::parse(page.substr(from + start.size(), to + 1 - from - start.size()));
}

// The scene does not need three.js: a stand-in keeps these tests free of libjs-three (the
// browser test uses the real one).
Json view(TempDir& dir, Args args) {
  const std::string html = dir.file("page.html");
  args.insert(args.begin(), "view");
  args.insert(args.end(), {"--html", html, "--three-js", dir.write("three.min.js", "/* three.js stand-in */")});
  const CommandResult r = runGrbda(args);
  EXPECT_EQ(r.exitCode, 0) << commandLine(args) << "\n" << r.err;
  EXPECT_NE(r.out.find("wrote " + html), std::string::npos) << r.out;
  return r.exitCode == 0 ? sceneOfPage(html) : Json{};
}

std::string header(const grbda::Model& model) {
  std::string h = "t";
  for (const auto& n : model.positionNames()) h += "," + n;
  return h;
}

std::string row(double t, const grbda::VecX& q) { return std::to_string(t) + "," + joinFull({q.data(), q.data() + q.size()}); }

}  // namespace

TEST(CliView, EveryBodyAndContactIsWhereForwardKinematicsPutsIt) {
  const grbda::Model model = grbda::loadUrdf(kCheetah);
  grbda::VecX q = model.neutralConfiguration();
  for (int i = 7; i < model.nq(); ++i) q[i] = 0.1 * (i - 10);  // every leg joint away from zero
  q[2] = 0.4;
  TempDir dir;
  const Json s = view(dir, {kCheetah, "--q", joinFull({q.data(), q.data() + q.size()}), "--contact", "FR_foot",
                            "--contact", "HL_foot:0,0,-0.01"});
  ASSERT_EQ(s["bodies"].size(), static_cast<size_t>(model.numBodies()));
  ASSERT_EQ(s["clusters"].size(), static_cast<size_t>(model.numClusters()));
  ASSERT_EQ(s["poses"].size(), 1u);
  int rotors = 0;
  for (size_t i = 0; i < s["bodies"].size(); ++i) rotors += s["bodies"][i]["rotor"].boolean;
  EXPECT_EQ(rotors, 12);  // one geared rotor per leg joint, no link taken for one

  grbda::Data data(model);
  grbda::forwardKinematics(model, data, q);
  const std::vector<double> bodies = s["poses"][0]["bodies"].numbers();
  ASSERT_EQ(bodies.size(), 7u * model.numBodies());
  for (int i = 0; i < model.numBodies(); ++i) {
    const grbda::Vec3 p = data.Xa[i].r;
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(bodies[7 * i + a], p[a], 1e-6) << model.body(i).name;
    const Eigen::Quaterniond r(Eigen::Quaterniond(bodies[7 * i + 6], bodies[7 * i + 3], bodies[7 * i + 4], bodies[7 * i + 5]));
    EXPECT_LT((r.toRotationMatrix() - data.Xa[i].E.transpose()).norm(), 1e-5) << model.body(i).name;
  }
  const std::vector<double> contacts = s["poses"][0]["contacts"].numbers();
  ASSERT_EQ(contacts.size(), 6u);
  const grbda::Vec3 fr = grbda::framePosition(model, data, model.frameIndex("FR_foot"));
  const grbda::Vec3 hl = grbda::framePosition(model, data, model.frameIndex("HL_foot"), grbda::Vec3(0, 0, -0.01));
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(contacts[a], fr[a], 1e-6);
    EXPECT_NEAR(contacts[3 + a], hl[a], 1e-6);
  }
  // Each foot hangs from its calf: a segment from the calf's joint to the foot frame.
  bool footSegment = false;
  for (size_t k = 0; k < s["segments"].size(); ++k)
    footSegment |= s["segments"][k]["to"][0].text == "frames" &&
                   model.frame(static_cast<int>(s["segments"][k]["to"][1].number)).name == "FR_foot";
  EXPECT_TRUE(footSegment);
}

TEST(CliView, AFixedBaseFileFloatsWithFloatingAsInEveryCommand) {
  // --floating adds a free joint at the root: the page takes its 7 base coordinates, and the whole
  // arm is drawn where forward kinematics of the floating model puts it (lifted by 1 m here).
  grbda::LoadOptions options;
  options.floatingBase = true;
  const grbda::Model model = grbda::loadUrdf(kFourBar, options);
  grbda::VecX q = model.neutralConfiguration();
  q[2] = 1.0;
  TempDir dir;
  const Json s = view(dir, {kFourBar, "--floating", "--q", joinFull({q.data(), q.data() + q.size()})});
  grbda::Data data(model);
  grbda::forwardKinematics(model, data, q);
  const std::vector<double> bodies = s["poses"][0]["bodies"].numbers();
  ASSERT_EQ(bodies.size(), 7u * model.numBodies());
  for (int i = 0; i < model.numBodies(); ++i)
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(bodies[7 * i + a], data.Xa[i].r[a], 1e-6) << model.body(i).name;
  // the same arm as the fixed-base file's at its neutral pose, 1 m up (the floating model has the
  // root link as an extra first body)
  const grbda::Model fixed = grbda::loadUrdf(kFourBar);
  ASSERT_EQ(model.numBodies(), fixed.numBodies() + 1);
  grbda::Data fixedData(fixed);
  grbda::forwardKinematics(fixed, fixedData, fixed.neutralConfiguration());
  for (int i = 0; i < fixed.numBodies(); ++i)
    EXPECT_LT((grbda::Vec3(bodies[7 * (i + 1)], bodies[7 * (i + 1) + 1], bodies[7 * (i + 1) + 2]) -
               fixedData.Xa[i].r - grbda::Vec3(0, 0, 1)).norm(), 1e-6) << fixed.body(i).name;
}

TEST(CliView, AClosedLoopIsDrawnClosed) {
  // The four-bar's loop points, seen from both bodies it joins, coincide at any valid configuration.
  TempDir dir;
  const Json s = view(dir, {kFourBar, "--q", "0.3"});
  const std::vector<double> loops = s["poses"][0]["loops"].numbers();
  ASSERT_EQ(loops.size() % 6, 0u);
  ASSERT_GT(loops.size(), 0u);
  for (size_t l = 0; l < loops.size(); l += 6)
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(loops[l + a], loops[l + 3 + a], 1e-6);
}

TEST(CliView, ATrajectoryGivesOnePosePerRow) {
  const grbda::Model model = grbda::loadUrdf(kCheetah);
  TempDir dir;
  grbda::VecX q = model.neutralConfiguration();
  std::string csv = header(model) + ",note\n";
  for (int k = 0; k < 5; ++k) {
    q[2] = 0.1 * k;
    csv += row(0.1 * k, q) + ",x\n";
  }
  const Json s = view(dir, {kCheetah, "--trajectory", dir.write("traj.csv", csv)});
  ASSERT_EQ(s["poses"].size(), 5u);
  for (size_t k = 0; k < 5; ++k) {
    EXPECT_NEAR(s["poses"][k]["t"].number, 0.1 * k, 1e-12);
    EXPECT_NEAR(s["poses"][k]["bodies"].numbers()[2], 0.1 * k, 1e-6);  // the torso rises
  }
}

TEST(CliView, BadTrajectoriesNameTheFileAndLine) {
  const grbda::Model model = grbda::loadUrdf(kFourBar);
  const std::string good = row(0, model.neutralConfiguration());
  TempDir dir;
  const std::string three = dir.write("three.min.js", "/* three.js stand-in */");
  const auto bad = [&](const std::string& name, const std::string& text, const std::vector<std::string>& mentions) {
    const std::string path = dir.write(name, text);
    std::vector<std::string> all = mentions;
    all.push_back(path);
    expectCommandError({"view", kFourBar, "--trajectory", path, "--three-js", three, "--html", dir.file("bad.html")}, 2,
                       all);
  };
  const std::string h = header(model);
  bad("column.csv", "t,elbow\n" + good + "\n", {":1:", "unknown column 'elbow'", model.positionNames()[0]});
  bad("time.csv", "time," + h.substr(2) + "\n", {":1:", "'t'"});
  bad("short_header.csv", "t\n0\n", {":1:", "ends before position"});
  bad("length.csv", h + "\n" + good + "\n0.1\n", {":3:", "1 fields", "header has 2"});
  bad("nan.csv", h + "\n" + good + "\n0.1,nan\n", {":3:", "NaN"});
  bad("inf.csv", h + "\n\n0.1,1e999\n", {":3:", "out of the range"});
  bad("word.csv", h + "\n0.1,abc\n", {":2:", "not a number"});
  bad("back.csv", h + "\n0.2,0\n0.1,0\n", {":3:", "before the previous"});
  bad("empty.csv", "", {"empty file"});
  bad("no_rows.csv", h + "\n", {"no rows"});
  expectCommandError({"view", kFourBar, "--trajectory", dir.path + "/missing.csv", "--three-js", three, "--html",
                      dir.file("x.html")}, 2,
                     {"cannot open", "missing.csv"});
}

TEST(CliView, BadCommandLinesAreUsageErrors) {
  TempDir dir;
  const std::string html = dir.file("page.html");
  const std::string three = dir.write("three.min.js", "/* three.js stand-in */");
  expectCommandError({"view", kFourBar}, 2, {"--html"});
  const Args out = {"--three-js", three, "--html", html};
  const auto with = [&out](Args args) {
    args.insert(args.end(), out.begin(), out.end());
    return args;
  };
  expectCommandError(with({"view", kFourBar, "--q", "0.1", "--trajectory", "x.csv"}), 2, {"not both"});
  expectCommandError(with({"view", kFourBar, "--q", "0.1,0.2"}), 2, {"--q has 2 values"});
  expectCommandError(with({"view", kCheetah, "--contact", "FR_toe"}), 2, {"FR_toe"});
  expectCommandError({"view", kCheetah, "--three-js", dir.path + "/none.js", "--html", html}, 2, {"--three-js", "none.js"});
  expectCommandError({"view", kCheetah, "--three-js", three, "--html", dir.path + "/no/such/dir/page.html"}, 2,
                     {"cannot write"});
  // The four-bar's neutral configuration is its closed assembly pose (the model keeps it), so the
  // page needs no --q.
  const CommandResult closed = runGrbda(with({"view", kFourBar}));
  EXPECT_EQ(closed.exitCode, 0) << closed.err;
}

namespace {
// A shape's world placement: its body's pose from the scene composed with its body-coordinate place.
grbda::Vec3 shapeCentre(const Json& scene, const Json& shape, size_t pose) {
  const std::vector<double> place = shape["place"].numbers();
  const grbda::Vec3 local(place[0], place[1], place[2]);
  const int body = static_cast<int>(shape["body"].number);
  if (body < 0) return local;
  const std::vector<double> b = scene["poses"][pose]["bodies"].numbers();
  const Eigen::Quaterniond r(b[7 * body + 6], b[7 * body + 3], b[7 * body + 4], b[7 * body + 5]);
  return r * local + grbda::Vec3(b[7 * body], b[7 * body + 1], b[7 * body + 2]);
}

const Json* shapeOf(const Json& scene, const std::string& kind, const std::string& type) {
  for (const Json& s : scene["shapes"].items)
    if (s["kind"].text == kind && s["type"].text == type) return &s;
  return nullptr;
}
}  // namespace

TEST(CliView, VisualsAndCollisionShapesSitWhereTheirLinksAre) {
  // Each <visual> origin, placed through the scene's body pose, lands where the library's frame
  // kinematics puts the point (link frame + origin) — through a revolute joint and a fixed one.
  const grbda::Model model = grbda::loadUrdf(kArm);
  TempDir dir;
  // three.js' STL loader stand-in, where Debian puts the loaders next to three.js
  std::filesystem::create_directories(dir.path + "/examples/js/loaders");
  dir.write("examples/js/loaders/STLLoader.js", "/* STLLoader stand-in */");
  dir.write("examples/js/loaders/OBJLoader.js", "/* OBJLoader stand-in */");
  const Json s = view(dir, {kArm, "--q", "0.7"});
  for (const char* type : {"box", "cylinder", "sphere", "mesh"}) ASSERT_NE(shapeOf(s, "visual", type), nullptr) << type;
  grbda::Data data(model);
  grbda::VecX q(1);
  q << 0.7;
  grbda::forwardKinematics(model, data, q);
  const auto expectAt = [&](const Json* shape, const std::string& link, const grbda::Vec3& offset) {
    ASSERT_NE(shape, nullptr) << link;
    EXPECT_EQ((*shape)["link"].text, link);
    const grbda::Vec3 want = grbda::framePosition(model, data, model.frameIndex(link), offset);
    EXPECT_LT((shapeCentre(s, *shape, 0) - want).norm(), 1e-6) << link;
  };
  expectAt(shapeOf(s, "visual", "box"), "base", grbda::Vec3(0, 0, 0.05));
  expectAt(shapeOf(s, "visual", "cylinder"), "upper", grbda::Vec3(0, 0, 0.2));
  expectAt(shapeOf(s, "visual", "sphere"), "upper", grbda::Vec3(0, 0, 0.4));
  expectAt(shapeOf(s, "visual", "mesh"), "hand", grbda::Vec3(0.05, 0, 0));
  expectAt(shapeOf(s, "collision", "cylinder"), "upper", grbda::Vec3(0, 0, 0.2));
  // sizes and colours as written; the found mesh is carried, the missing one skipped
  EXPECT_EQ(shapeOf(s, "visual", "box")->operator[]("size").numbers(), (std::vector<double>{0.2, 0.2, 0.1}));
  EXPECT_EQ(shapeOf(s, "visual", "box")->operator[]("color").numbers(), (std::vector<double>{0.1, 0.2, 0.8, 1}));
  EXPECT_EQ(shapeOf(s, "visual", "cylinder")->operator[]("color").numbers(), (std::vector<double>{0.8, 0.1, 0.1, 1}));
  EXPECT_EQ(shapeOf(s, "visual", "mesh")->operator[]("size").numbers(), (std::vector<double>{0.1, 0.1, 0.1}));
  ASSERT_EQ(s["meshes"].size(), 2u);  // the STL and the OBJ; the missing one is skipped
  EXPECT_EQ(s["meshes"][0]["format"].text, "stl");
  EXPECT_EQ(s["meshes"][1]["format"].text, "obj");
  const Json& obj = s["shapes"][4];
  EXPECT_EQ(obj["mesh"].number, 1.0);
  expectAt(&obj, "hand", grbda::Vec3(-0.05, 0, 0));
  EXPECT_EQ(s["shapes"].size(), 6u);
  EXPECT_EQ(s["ground"].type, Json::Type::Null);
  std::filesystem::remove_all(dir.path + "/examples");
  TempDir plain;  // a three.js without loaders beside it
  const CommandResult r = runGrbda({"view", kArm, "--html", plain.file("arm.html"), "--three-js",
                                    plain.write("three.min.js", "/* stand-in */")});
  EXPECT_NE(r.err.find("missing.stl"), std::string::npos) << r.err;  // a warning, not an error
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.err.find("loader"), std::string::npos) << r.err;  // no STL loader next to this three.js
}

TEST(CliView, TheMiniCheetahsFootSpheresAreOnItsFeet) {
  const grbda::Model model = grbda::loadUrdf(kCheetah);
  TempDir dir;
  const Json s = view(dir, {kCheetah, "--ground-height", "-0.1"});
  grbda::Data data(model);
  grbda::forwardKinematics(model, data, model.neutralConfiguration());
  int spheres = 0;
  for (const Json& shape : s["shapes"].items) {
    ASSERT_EQ(shape["kind"].text, "collision");
    ASSERT_EQ(shape["type"].text, "sphere");
    EXPECT_NEAR(shape["radius"].number, 0.02, 1e-12);
    const grbda::Vec3 foot = grbda::framePosition(model, data, model.frameIndex(shape["link"].text));
    EXPECT_LT((shapeCentre(s, shape, 0) - foot).norm(), 1e-6) << shape["link"].text;
    ++spheres;
  }
  EXPECT_EQ(spheres, 4);
  EXPECT_NEAR(s["ground"]["height"].number, -0.1, 1e-12);
  EXPECT_NEAR(s["ground_height"].number, -0.1, 1e-12);  // the grid lies on the ground
}

TEST(CliView, ASimulatedRunPlaysWithItsGroundAndContactForces) {
  // simulate --ground --out, then view --trajectory: one pose per row, the torso where the run put
  // it, the ground from the file, and at the end the force arrows' vertical components summing to
  // the normal force the simulator reports (flat ground: friction is horizontal).
  TempDir dir;
  const std::string csv = dir.file("drop.csv");
  const Args run = {"simulate", kCheetah, "--ground", "--pd", "50,0.4", "--q0", kCrouch, "--duration", "0.3"};
  Args withCsv = run;
  withCsv.insert(withCsv.end(), {"--out", csv});
  ASSERT_EQ(runGrbda(withCsv).exitCode, 0);
  Args withJson = run;
  withJson.push_back("--json");
  const CommandResult summary = runGrbda(withJson);
  ASSERT_EQ(summary.exitCode, 0) << summary.err;
  const Json j = JsonReader::parse(summary.out);

  const Json s = view(dir, {kCheetah, "--trajectory", csv});
  ASSERT_EQ(s["poses"].size(), 301u);
  EXPECT_NEAR(s["ground"]["height"].number, 0.0, 1e-12);
  ASSERT_EQ(s["force_links"].size(), 4u);
  const Json& last = s["poses"][300];
  EXPECT_NEAR(last["t"].number, 0.3, 1e-9);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(last["bodies"].numbers()[a], j["final_q"][a].number, 1e-6);
  const std::vector<double> forces = last["forces"].numbers();
  ASSERT_EQ(forces.size(), 7u * j["final_contacts"].size());
  double fz = 0.0;
  for (size_t i = 0; i < forces.size(); i += 7) {
    EXPECT_EQ(s["force_links"][static_cast<size_t>(forces[i])].text.find("_foot") != std::string::npos, true);
    EXPECT_LT(std::abs(forces[i + 3]), 1.1e-3);  // the centre of pressure on the ground (within the margin)
    fz += forces[i + 6];
  }
  EXPECT_NEAR(fz, j["normal_force_sum"].number, 1e-5 * j["normal_force_sum"].number + 1e-5);
  EXPECT_EQ(s["poses"][0]["forces"].size(), 0u);  // dropped from the air: nothing touches at first
}

TEST(CliView, ARunFileWithQColumnsInAnyOrder) {
  const grbda::Model model = grbda::loadUrdf(kFourBar);
  TempDir dir;
  const std::string name = model.positionNames()[0];
  const Json s = view(dir, {kFourBar, "--trajectory",
                            dir.write("run.csv", "t,v:" + name + ",energy,q:" + name + "\n0,9,1,0.3\n0.1,9,1,0.4\n")});
  ASSERT_EQ(s["poses"].size(), 2u);
  TempDir other;
  const Json direct = view(other, {kFourBar, "--q", "0.4"});
  EXPECT_EQ(s["poses"][1]["bodies"].numbers(), direct["poses"][0]["bodies"].numbers());
}

TEST(CliView, APlainSimulateRunPlays) {
  // simulate --out without a world: the last pose drawn is the run's final_q, as --q would draw it.
  TempDir dir;
  const std::string csv = dir.file("fb.csv");
  const CommandResult r = runGrbda({"simulate", kFourBar, "--q0", "0.5", "--duration", "0.05", "--out", csv, "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Json j = JsonReader::parse(r.out);
  const Json s = view(dir, {kFourBar, "--trajectory", csv});
  ASSERT_EQ(s["poses"].size(), 51u);
  EXPECT_EQ(s["ground"].type, Json::Type::Null);
  TempDir other;
  const Json last = view(other, {kFourBar, "--q", joinFull(j["final_q"].numbers())});
  const std::vector<double> a = s["poses"][50]["bodies"].numbers(), b = last["poses"][0]["bodies"].numbers();
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) EXPECT_NEAR(a[k], b[k], 2e-6);  // both written to the micrometre
}

TEST(CliView, BadRunFilesNameTheColumn) {
  TempDir dir;
  const std::string three = dir.write("three.min.js", "/* three.js stand-in */");
  const grbda::Model model = grbda::loadUrdf(kFourBar);
  const std::string q = "q:" + model.positionNames()[0];
  const auto bad = [&](const std::string& name, const std::string& text, const std::vector<std::string>& mentions) {
    const std::string path = dir.write(name, text);
    std::vector<std::string> all = mentions;
    all.push_back(path);
    expectCommandError({"view", kFourBar, "--trajectory", path, "--three-js", three, "--html", dir.file("bad.html")}, 2,
                       all);
  };
  bad("missing_q.csv", "t,q:other\n0,1\n", {":1:", "no column '" + q + "'"});
  bad("half_contact.csv", "t," + q + ",cp:foot:x,cp:foot:y,cp:foot:z\n0,0.3,0,0,0\n", {":1:", "cf:foot:x"});
  bad("contact_word.csv", "t," + q + ",cp:f:x,cp:f:y,cp:f:z,cf:f:x,cf:f:y,cf:f:z\n0,0.3,0,0,abc,0,0,0\n",
      {":2:", "cp:f", "not a number"});
  bad("ground_word.csv", "t," + q + ",ground_height\n0,0.3,low\n", {":2:", "ground_height"});
}

#endif  // GRBDA_CLI_PATH

// FCL and meshes: FCL's distances against closed forms, the convex hull against its definition,
// STL (binary, ASCII) and OBJ files, a mesh cube's hull resting and sliding exactly as a box of
// the same size, and bad meshes as typed errors or the one warning naming the link.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <set>

#include "grbda/collision/mesh.hpp"
#include "grbda/logging.hpp"
#include "grbda/collision/self_collision.hpp"
#include "grbda/grbda.hpp"
#include "grbda/sim/simulator.hpp"
#include "support/floating_body.hpp"
#include "support/temp_dir.hpp"

namespace grbda {
namespace {

using testsupport::boxInertia;
using testsupport::floatingBody;

ShapePose at(const Vec3& centre, const Mat3& rotation = Mat3::Identity()) { return ShapePose{centre, rotation}; }

TEST(FclDistance, SphereSphereEqualsTheClosedForm) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.5, 0.5), r(0.05, 0.3);
  for (int trial = 0; trial < 200; ++trial) {
    const double ra = r(rng), rb = r(rng);
    const Vec3 ca(u(rng), u(rng), u(rng)), cb(u(rng), u(rng), u(rng));
    const ShapeDistance d = shapeDistance(CollisionShape::sphere(ra), at(ca), CollisionShape::sphere(rb), at(cb));
    const double closed = (ca - cb).norm() - ra - rb;  // centres' distance minus the radii
    const Vec3 normal = (ca - cb).normalized();          // from b into a
    EXPECT_NEAR(d.distance, closed, closed > 0.0 ? 1e-9 : 1e-6) << "trial " << trial;
    EXPECT_LT((d.normal - normal).norm(), closed > 0.0 ? 1e-9 : 1e-4) << "trial " << trial;
    if (closed > 0.0) {
      EXPECT_LT((d.point1 - (ca - ra * normal)).norm(), 1e-9);
      EXPECT_LT((d.point2 - (cb + rb * normal)).norm(), 1e-9);
    }
  }
}

TEST(FclDistance, CapsuleAboveATurnedBoxEqualsTheClosedForm) {
  // a box turned about z keeps its top face at z = h: a vertical capsule above it is
  // (its lower cap's lowest point) − h away, whatever the turn
  const CollisionShape box = CollisionShape::box(Vec3(0.4, 0.2, 0.1)), capsule = CollisionShape::capsule(0.03, 0.2);
  for (double turn : {0.0, 0.3, 1.2})
    for (double z : {0.3, 0.2, 0.16}) {
      const Mat3 R = Eigen::AngleAxisd(turn, Vec3::UnitZ()).toRotationMatrix();
      const ShapeDistance d = shapeDistance(capsule, at(Vec3(0.01, 0.02, z)), box, at(Vec3::Zero(), R));
      EXPECT_NEAR(d.distance, z - 0.1 - 0.03 - 0.05, 1e-6) << turn << " " << z;
      EXPECT_LT((d.normal - Vec3::UnitZ()).norm(), 1e-6);
    }
}

// ---- convex hulls ----

std::vector<Vec3> cubeCorners(const Vec3& half) {
  std::vector<Vec3> c;
  for (int i = 0; i < 8; ++i) c.emplace_back((i & 1) ? half.x() : -half.x(), (i & 2) ? half.y() : -half.y(), (i & 4) ? half.z() : -half.z());
  return c;
}

/// Every point lies on the inner side of every face (outward normals), and V − E + F = 2.
void expectHullOf(const ConvexHull& h, const std::vector<Vec3>& points) {
  std::set<std::pair<int, int>> edges;
  for (const auto& f : h.faces) {
    const Vec3 a = h.vertices[f[0]], n = (h.vertices[f[1]] - a).cross(h.vertices[f[2]] - a);
    ASSERT_GT(n.norm(), 0.0);
    for (const Vec3& x : points) EXPECT_LE(n.normalized().dot(x - a), 1e-9);
    for (int e = 0; e < 3; ++e) edges.insert({std::min(f[e], f[(e + 1) % 3]), std::max(f[e], f[(e + 1) % 3])});
  }
  EXPECT_EQ(static_cast<int>(h.vertices.size()) - static_cast<int>(edges.size()) + static_cast<int>(h.faces.size()), 2);
}

TEST(ConvexHull, OfACubeWithInteriorPointsIsTheCube) {
  std::vector<Vec3> points = cubeCorners(Vec3(0.2, 0.15, 0.05));
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> u(-0.04, 0.04);
  for (int i = 0; i < 50; ++i) points.emplace_back(u(rng), u(rng), u(rng));
  for (int i = 0; i < 8; ++i) points.push_back(points[static_cast<size_t>(i)]);  // duplicates, as STL has
  const auto h = convexHull(points);
  EXPECT_EQ(h->vertices.size(), 8u);
  EXPECT_EQ(h->faces.size(), 12u);
  expectHullOf(*h, points);
}

TEST(ConvexHull, OfPointsOnASphereKeepsThemAll) {
  std::mt19937 rng(3);
  std::normal_distribution<double> g;
  std::vector<Vec3> points;
  for (int i = 0; i < 300; ++i) points.push_back(Vec3(g(rng), g(rng), g(rng)).normalized());
  const auto h = convexHull(points);
  EXPECT_EQ(h->vertices.size(), 300u);  // every point of a sphere is extreme
  expectHullOf(*h, points);
}

TEST(ConvexHull, FlatOrTooFewPointsAreTypedErrors) {
  EXPECT_THROW(convexHull({Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY()}), InputError);
  std::vector<Vec3> flat = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0), Vec3(0.5, 0.2, 0)};
  try {
    convexHull(flat, "plate.stl");
    FAIL() << "a flat mesh was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("plate.stl"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("one plane"), std::string::npos) << e.what();
  }
  flat.push_back(Vec3(0, 0, std::nan("")));
  EXPECT_THROW(convexHull(flat), InputError);
}

// ---- mesh files ----

/// The 12 triangles of a box of half sizes h (outward).
std::vector<std::array<Vec3, 3>> boxTriangles(const Vec3& h) {
  const std::vector<Vec3> c = cubeCorners(h);
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  std::vector<std::array<Vec3, 3>> t;
  for (const auto& q : quads) {
    t.push_back({c[q[0]], c[q[1]], c[q[2]]});
    t.push_back({c[q[0]], c[q[2]], c[q[3]]});
  }
  return t;
}

std::string binaryStl(const std::vector<std::array<Vec3, 3>>& tris) {
  std::string s(80, ' ');
  const uint32_t n = static_cast<uint32_t>(tris.size());
  s.append(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : tris) {
    const float zero[3] = {0, 0, 0};
    s.append(reinterpret_cast<const char*>(zero), 12);
    for (const Vec3& v : t)
      for (int i = 0; i < 3; ++i) {
        const float f = static_cast<float>(v[i]);
        s.append(reinterpret_cast<const char*>(&f), 4);
      }
    s.append(2, '\0');
  }
  return s;
}

std::string asciiStl(const std::vector<std::array<Vec3, 3>>& tris) {
  std::string s = "solid cube\n";
  for (const auto& t : tris) {
    s += " facet normal 0 0 0\n  outer loop\n";
    for (const Vec3& v : t) s += "   vertex " + std::to_string(v.x()) + " " + std::to_string(v.y()) + " " + std::to_string(v.z()) + "\n";
    s += "  endloop\n endfacet\n";
  }
  return s + "endsolid cube\n";
}

std::string obj(const Vec3& h) {
  std::string s = "# a box\n";
  for (const Vec3& v : cubeCorners(h)) s += "v " + std::to_string(v.x()) + " " + std::to_string(v.y()) + " " + std::to_string(v.z()) + "\n";
  return s + "f 1 2 3\n";
}

std::string writeBinary(testing::TempDir& dir, const std::string& name, const std::string& bytes) {
  const std::string p = dir.file(name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

TEST(MeshFiles, BinaryAsciiStlAndObjGiveTheBoxHullScaled) {
  testing::TempDir dir;
  const Vec3 h(0.25, 0.125, 0.5);  // exact in float
  const std::string files[3] = {writeBinary(dir, "cube.stl", binaryStl(boxTriangles(h))),
                                dir.write("cube_ascii.STL", asciiStl(boxTriangles(h))), dir.write("cube.obj", obj(h))};
  for (const std::string& f : files) {
    const auto hull = loadMeshHull(f, Vec3(2.0, 1.0, 0.5));
    ASSERT_EQ(hull->vertices.size(), 8u) << f;
    Vec3 lo = hull->vertices[0], hi = lo;
    for (const Vec3& v : hull->vertices) { lo = lo.cwiseMin(v); hi = hi.cwiseMax(v); }
    EXPECT_LT((hi - Vec3(0.5, 0.125, 0.25)).norm(), 1e-12) << f;
    EXPECT_LT((lo + Vec3(0.5, 0.125, 0.25)).norm(), 1e-12) << f;
  }
}

TEST(MeshFiles, UnreadableUnsupportedOrTruncatedFilesAreInputErrorsNamingTheFile) {
  testing::TempDir dir;
  const auto message = [](const std::string& path) {
    try {
      loadMeshHull(path);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(dir.path + "/missing.stl").find("missing.stl': cannot open"), std::string::npos);
  EXPECT_NE(message(dir.write("part.dae", "<COLLADA/>")).find("unsupported mesh format '.dae'"), std::string::npos);
  std::string cut = binaryStl(boxTriangles(Vec3::Constant(0.1)));
  cut.resize(cut.size() - 10);
  EXPECT_NE(message(writeBinary(dir, "cut.stl", cut)).find("cut.stl"), std::string::npos);
  EXPECT_NE(message(dir.write("bad.obj", "v 1 2\n")).find("line 1"), std::string::npos);
  const std::string ok = dir.write("ok.obj", obj(Vec3::Constant(0.1)));
  for (const Vec3& scale : {Vec3(1, 0, 1), Vec3(1, std::nan(""), 1), Vec3(1, 1, HUGE_VAL)}) {
    try {
      loadMeshHull(ok, scale);
      ADD_FAILURE() << "scale " << scale.transpose() << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("scale must be finite and non-zero"), std::string::npos) << e.what();
    }
  }
}

/// Every hull vertex on or below every face's plane: the faces point outward.
void expectOutwardFaces(const ConvexHull& hull) {
  for (const auto& f : hull.faces) {
    const Vec3 &a = hull.vertices[static_cast<size_t>(f[0])], &b = hull.vertices[static_cast<size_t>(f[1])],
               &c = hull.vertices[static_cast<size_t>(f[2])];
    const Vec3 n = (b - a).cross(c - a).normalized();
    for (const Vec3& v : hull.vertices) EXPECT_LE(n.dot(v - a), 1e-12);
  }
}

TEST(MeshFiles, ANegativeScaleMirrorsTheHullAndKeepsItsFacesOutward) {
  testing::TempDir dir;
  // a lopsided tetrahedron: its mirror image is not itself
  const std::string tetra = dir.write("wedge.obj", "v 0.1 0.2 0.0\nv 0.5 0.3 0.1\nv 0.2 0.9 0.2\nv 0.3 0.4 0.7\nf 1 2 3\n");
  const auto plain = loadMeshHull(tetra);
  const auto mirrored = loadMeshHull(tetra, Vec3(1.0, -1.0, 1.0));
  ASSERT_EQ(plain->vertices.size(), 4u);
  ASSERT_EQ(mirrored->vertices.size(), 4u);
  for (const Vec3& v : plain->vertices) {  // each vertex has its mirror image (y negated) in the other hull
    double nearest = HUGE_VAL;
    for (const Vec3& w : mirrored->vertices) nearest = std::min(nearest, (w - Vec3(v.x(), -v.y(), v.z())).norm());
    EXPECT_LT(nearest, 1e-15) << v.transpose();
  }
  expectOutwardFaces(*plain);
  expectOutwardFaces(*mirrored);
  const auto thrice = loadMeshHull(tetra, Vec3(-1.0, -1.0, -1.0));  // a point reflection: also a mirror
  expectOutwardFaces(*thrice);
}

// ---- a mesh cube's hull in the simulator: the same contacts and forces as the box ----

Model floatingWith(const CollisionShape& shape) {
  return floatingBody(2.0, Vec3(0.03, 0.04, 0.05).asDiagonal(), shape);
}

TEST(MeshInSimulator, AMeshCubesHullDropsRestsAndSlidesAsTheBoxOfTheSameSize) {
  testing::TempDir dir;
  const Vec3 size(0.4, 0.3, 0.1);
  const auto hull = loadMeshHull(writeBinary(dir, "box.stl", binaryStl(boxTriangles(0.5 * size))));
  const Model boxModel = floatingWith(CollisionShape::box(size)), meshModel = floatingWith(CollisionShape::mesh(hull));
  EXPECT_EQ(meshModel.collisionGeometries()[0].shape.type, ShapeType::Mesh);
  World world;
  world.friction = 0.3;
  SimulatorOptions tight;  // the contacts come in another order: solve both to round-off
  tight.solver.tolerance = 1e-12;
  tight.solver.maxIterations = 5000;
  Simulator a(boxModel, world, tight), b(meshModel, world, tight);
  VecX q(7);
  q << 0.0, 0.0, 0.12, std::cos(0.1), std::sin(0.1), 0.0, 0.0;  // tilted: lands on an edge first
  VecX v = VecX::Zero(6);
  v.segment<3>(3) = Vec3(0.6, 0.2, 0.0);
  a.setState(q, v);
  b.setState(q, v);
  // the contacts come in another order (hull vertices, not corners), and an edge landing's impulses
  // are not unique (two points leave the turn about their line free): the steps agree to the
  // solver's reach, not to round-off (measured: q to 4e-9, the normal force sum to 5e-5 of itself at worst)
  double worst = 0.0, worstForce = 0.0;
  for (int step = 0; step < 600; ++step) {
    a.step();
    b.step();
    worst = std::max(worst, (a.q() - b.q()).norm());
    ASSERT_EQ(a.lastStep().contacts.size(), b.lastStep().contacts.size()) << "step " << step;
    worstForce = std::max(worstForce, std::abs(a.lastStep().normalForceSum() - b.lastStep().normalForceSum()) /
                                          (1.0 + a.lastStep().normalForceSum()));
  }
  EXPECT_LT(worstForce, 1e-4);
  EXPECT_LT(worst, 1e-7);
  std::printf("mesh hull against box: worst |dq| %.3g, worst relative normal force difference %.3g\n", worst, worstForce);
  EXPECT_EQ(a.lastStep().contacts.size(), 4u);  // resting flat on four corners
  EXPECT_NEAR(b.lastStep().normalForceSum(), 2.0 * 9.81, 1e-6);
}

// ---- URDF <mesh> ----

std::string urdfWithMesh(const std::string& filename, const std::string& scale = "") {
  return R"(<robot name="r"><link name="base"/><link name="arm"><inertial><mass value="1"/>)"
         R"(<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>)"
         R"(<collision><geometry><mesh filename=")" + filename + "\"" + scale + R"(/></geometry></collision></link>)"
         R"(<joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 1 0"/>)"
         R"(<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>)";
}

TEST(MeshInUrdf, AFoundMeshIsItsHullAndAMissingOneIsSkippedWithOneWarningNamingTheLink) {
  testing::TempDir dir;
  writeBinary(dir, "arm.stl", binaryStl(boxTriangles(Vec3::Constant(0.1))));
  const std::string urdf = dir.write("arm.urdf", urdfWithMesh("arm.stl", " scale=\"2 2 2\""));
  const Model found = loadUrdf(urdf);
  ASSERT_EQ(found.collisionGeometries().size(), 1u);
  const CollisionShape& s = found.collisionGeometries()[0].shape;
  ASSERT_EQ(s.type, ShapeType::Mesh);
  EXPECT_NEAR(s.hull->vertices[0].cwiseAbs().maxCoeff(), 0.2, 1e-7);  // scaled

  const std::string missing = dir.write("missing.urdf", urdfWithMesh("package://nowhere/meshes/arm.stl"));
  const LogLevel saved = logLevel();  // warnings on, whatever an earlier test in this binary left
  setLogLevel(LogLevel::Warn);
  ::testing::internal::CaptureStderr();
  const Model skipped = loadUrdf(missing);
  const std::string err = ::testing::internal::GetCapturedStderr();
  setLogLevel(saved);
  EXPECT_TRUE(skipped.collisionGeometries().empty());
  EXPECT_NE(err.find("link 'arm'"), std::string::npos) << err;
  EXPECT_NE(err.find("not found"), std::string::npos) << err;
  size_t count = 0;
  for (size_t p = err.find("is skipped"); p != std::string::npos; p = err.find("is skipped", p + 1)) ++count;
  EXPECT_EQ(count, 1u) << err;

  // a mirrored part (a negative scale component) is its mirrored hull; a zero one is a located error
  const Model mirrored = loadUrdf(dir.write("mirrored.urdf", urdfWithMesh("arm.stl", " scale=\"1 -2 1\"")));
  ASSERT_EQ(mirrored.collisionGeometries().size(), 1u);
  const ConvexHull& hull = *mirrored.collisionGeometries()[0].shape.hull;
  Vec3 hi = hull.vertices[0].cwiseAbs();
  for (const Vec3& v : hull.vertices) hi = hi.cwiseMax(v.cwiseAbs());
  EXPECT_LT((hi - Vec3(0.1, 0.2, 0.1)).norm(), 1e-7);
  expectOutwardFaces(hull);
  try {
    loadUrdf(dir.write("flat.urdf", urdfWithMesh("arm.stl", " scale=\"1 0 1\"")));
    ADD_FAILURE() << "a zero scale was accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("<mesh> scale must be finite and non-zero"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("flat.urdf"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace grbda

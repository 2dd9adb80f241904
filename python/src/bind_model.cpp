// The model as Python sees it: read-only views of the compiled Model and its parts.
#include "bindings.hpp"
#include "convert.hpp"
#include "grbda/model.hpp"

namespace grbda::python {

namespace {

void bindTransform(py::module_& m) {
  py::class_<Transform>(m, "Transform",
                        "Plücker transform ^B X_A stored as (E, r): E is the coordinate rotation A -> B "
                        "(x_B = E x_A), r the position of B's origin in A coordinates (metres).")
      .def(py::init([](ArrayLike E, ArrayLike r) {
             Transform X;
             if (!E.is_none()) X.E = toMatrix(E, "E", 3, 3);
             if (!r.is_none()) X.r = toVec3(r, "r");
             return X;
           }),
           py::arg("E") = py::none(), py::arg("r") = py::none(),
           "Transform(E=identity, r=zeros): coordinate rotation E (3x3, A -> B) and origin r of B in A.")
      .def_static(
          "from_xyz_rpy", [](ArrayLike xyz, ArrayLike rpy) { return urdfOriginToTransform(toVec3(xyz, "xyz"), toVec3(rpy, "rpy")); },
          py::arg("xyz"), py::arg("rpy"),
          "The transform of a URDF <origin xyz rpy>: parent frame -> child frame (rpy in radians, fixed axes).")
      .def_readwrite("E", &Transform::E, "3x3 coordinate rotation A -> B")
      .def_readwrite("r", &Transform::r, "origin of B in A coordinates (m)")
      .def("matrix", &Transform::toMatrix, "6x6 motion transform ^B X_A (angular rows first).")
      .def("force_matrix", &Transform::toForceMatrix, "6x6 force transform ^B X*_A.")
      .def("homogeneous", &homogeneousPose,
          "4x4 pose of B in A: [[E^T, r], [0, 1]] (maps B coordinates of a point to A coordinates).")
      .def("inverse", &Transform::inverse, "^A X_B.")
      .def("__mul__", &Transform::operator*, py::arg("other"), "Composition: (^C X_B) * (^B X_A) = ^C X_A.")
      .def(
          "apply", [](const Transform& X, ArrayLike mv) {
            const VecX v = toVector(mv, "motion");
            if (v.size() != 6) throw InputError("motion has " + std::to_string(v.size()) + " entries, expected 6");
            return X.apply(v);
          },
          py::arg("motion"), "Spatial motion [w; v] from A to B coordinates.")
      .def(
          "transform_point", [](const Transform& X, ArrayLike p) { return X.transformPoint(toVec3(p, "point")); },
          py::arg("point"), "A point's B coordinates from its A coordinates: E (p - r).")
      .def("__repr__", [](const Transform& X) {
        return "Transform(E=" + py::repr(py::cast(X.E)).cast<std::string>() + ", r=" +
               py::repr(py::cast(X.r)).cast<std::string>() + ")";
      });
}

void bindParts(py::module_& m) {
  py::enum_<JointType>(m, "JointType", "Spanning-tree joint types.")
      .value("REVOLUTE", JointType::Revolute)
      .value("PRISMATIC", JointType::Prismatic)
      .value("FREE", JointType::Free)
      .value("SCREW", JointType::Screw)
      .value("SPHERICAL", JointType::Spherical);
  py::class_<Joint>(m, "Joint",
                    "A spanning-tree joint: revolute, prismatic or screw about a unit axis (child frame), or free.")
      .def_readonly("type", &Joint::type, "JointType: REVOLUTE, PRISMATIC, FREE, SCREW or SPHERICAL")
      .def_readonly("axis", &Joint::axis, "unit axis in the joint (child) frame; unused by FREE")
      .def_readonly("pitch", &Joint::pitch,
                    "SCREW only: metres along the axis per radian about it (positive: right-handed thread)")
      .def_property_readonly("nq", &Joint::nq, "position coordinates (7 for FREE, 4 for SPHERICAL, else 1)")
      .def_property_readonly("nv", &Joint::nv, "velocity coordinates (6 for FREE, 3 for SPHERICAL, else 1)");

  py::class_<Body>(m, "Body", "A rigid body of the spanning tree (regular numbering: parent < child; ground = -1).")
      .def_readonly("name", &Body::name, "URDF link name")
      .def_readonly("joint_name", &Body::jointName, "URDF joint connecting it to its parent")
      .def_readonly("parent", &Body::parent, "parent body index; -1 is the ground")
      .def_readonly("Xtree", &Body::Xtree, "X_T: parent frame -> joint frame at q = 0")
      .def_readonly("joint", &Body::joint, "the Joint connecting it to its parent")
      .def_readonly("inertia", &Body::inertia, "6x6 spatial inertia in body coordinates (fixed children merged)")
      .def_readonly("q_index", &Body::qIndex, "first position coordinate in the spanning q")
      .def_readonly("v_index", &Body::vIndex, "first velocity coordinate in the spanning v")
      .def_readonly("cluster", &Body::cluster, "index of the cluster containing the body")
      .def_readonly("output", &Body::output, "nearest supporting body outside its cluster (-1: ground)")
      .def_readonly("independent", &Body::independent, "its joint coordinate is an independent coordinate")
      .def("__repr__", [](const Body& b) { return "<grbda.Body '" + b.name + "'>"; });

  py::class_<Cluster>(m, "Cluster",
                      "Bodies grouped because loop constraints couple their joints. Bodies of a cluster are "
                      "contiguous and parent-first; clusters are numbered parent first.")
      .def_readonly("name", &Cluster::name, "the constraint(s) that formed it, or the body's joint name")
      .def_property_readonly("type_name", &Cluster::typeName,
                             "cluster-joint type: 'Revolute', 'Free', 'RevoluteWithRotor', ..., 'Generic'")
      .def_readonly("first_body", &Cluster::firstBody, "index of its first body (bodies are contiguous)")
      .def_readonly("num_bodies", &Cluster::numBodies, "number of bodies")
      .def_property_readonly(
          "bodies", [](const Cluster& c) {
            std::vector<int> bodies;
            for (int i = 0; i < c.numBodies; ++i) bodies.push_back(c.firstBody + i);
            return bodies;
          },
          "indices of its bodies")
      .def_readonly("parent", &Cluster::parent, "parent cluster; -1 is the ground")
      .def_readonly("output", &Cluster::output, "output body in the parent cluster (-1: ground)")
      .def_readonly("q_index", &Cluster::qIndex, "first independent position")
      .def_readonly("nq", &Cluster::nq, "number of independent positions")
      .def_readonly("v_index", &Cluster::vIndex, "first independent velocity")
      .def_readonly("nv", &Cluster::nv, "degrees of freedom d_k")
      .def_readonly("q_span_index", &Cluster::qSpanIndex, "first spanning position")
      .def_readonly("nq_span", &Cluster::nqSpan, "number of spanning positions")
      .def_readonly("v_span_index", &Cluster::vSpanIndex, "first spanning velocity")
      .def_readonly("nv_span", &Cluster::nvSpan, "number of spanning velocities")
      .def("__repr__", [](const Cluster& c) { return "<grbda.Cluster '" + c.name + "' " + c.typeName() + ">"; });

  py::class_<Frame>(m, "Frame", "A named frame rigidly attached to a body (every URDF link is one).")
      .def_readonly("name", &Frame::name, "frame name (the URDF link)")
      .def_readonly("body", &Frame::body, "body index; -1: attached to the ground")
      .def_readonly("placement", &Frame::placement, "^frame X_body: body coordinates -> frame coordinates")
      .def("__repr__", [](const Frame& f) { return "<grbda.Frame '" + f.name + "'>"; });

  py::class_<LoopFrames>(m, "Loop", "A URDF+ <loop> as the two frames it joins.")
      .def_readonly("name", &LoopFrames::name, "name of the <loop>")
      .def_readonly("predecessor_body", &LoopFrames::predecessorBody, "body of the predecessor loop frame (-1: the ground)")
      .def_readonly("successor_body", &LoopFrames::successorBody, "body of the successor loop frame (-1: the ground)")
      .def_readonly("predecessor_placement", &LoopFrames::predecessorPlacement, "^loopframe X_body of the predecessor")
      .def_readonly("successor_placement", &LoopFrames::successorPlacement, "^loopframe X_body of the successor")
      .def_readonly("fixed", &LoopFrames::fixed, "orientation locked; otherwise revolute about `axis`")
      .def_readonly("axis", &LoopFrames::axis, "revolute axis in loop-frame coordinates")
      .def_readonly("type", &LoopFrames::type, "LoopKind of the <loop>")
      .def_readonly("axis2", &LoopFrames::axis2, "universal loops: the successor's axis, loop-frame coordinates")
      .def_readonly("cluster", &LoopFrames::cluster, "cluster whose constraints contain the loop");

  py::class_<KeptLoopGroup>(m, "KeptLoopGroup",
                             "Loops and couplings kept as constraint rows (load_urdf(..., loops='constrain')): the "
                             "group that would have formed one cluster.")
      .def_readonly("name", &KeptLoopGroup::name, "names of its loops and couplings")
      .def_readonly("first_body", &KeptLoopGroup::firstBody, "first of its bodies (contiguous)")
      .def_readonly("num_bodies", &KeptLoopGroup::numBodies, "number of its bodies (1-DoF joints)")
      .def_readonly("q_index", &KeptLoopGroup::qIndex, "first position coordinate of its joints")
      .def_readonly("v_index", &KeptLoopGroup::vIndex, "first velocity coordinate of its joints")
      .def_readonly("num_rows", &KeptLoopGroup::numRows, "its constraint rows (first in every ConstraintModel)")
      .def_readonly("num_dof", &KeptLoopGroup::numDof, "degrees of freedom the loops leave")
      .def("__repr__", [](const KeptLoopGroup& l) { return "<grbda.KeptLoopGroup '" + l.name + "'>"; });
  m.attr("LoopConstraint") = m.attr("KeptLoopGroup");  // old name, kept for scripts
}

void bindModelClass(py::module_& m) {
  py::class_<Model>(m, "Model",
                    "An immutable, validated robot (made by grbda.load, load_urdf or ModelBuilder.build). Shared "
                    "read-only by any number of threads, each with its own grbda.Data.")
      .def_property_readonly("name", &Model::name, "robot name (URDF <robot name>)")
      .def_property_readonly("source_file", &Model::sourceFile, "the file it was loaded from (empty: built in code)")
      .def_property_readonly("nq", &Model::nq, "number of independent position coordinates")
      .def_property_readonly("nv", &Model::nv, "number of independent velocities (degrees of freedom)")
      .def_property_readonly("nq_spanning", &Model::nqSpanning, "position coordinates of the spanning tree")
      .def_property_readonly("nv_spanning", &Model::nvSpanning, "velocity coordinates of the spanning tree")
      .def_property_readonly("num_bodies", &Model::numBodies, "number of bodies")
      .def_property_readonly("num_clusters", &Model::numClusters, "number of clusters")
      .def_property_readonly("bodies", &Model::bodies, "list of Body (a copy), regular order")
      .def_property_readonly("clusters", &Model::clusters, "list of Cluster (a copy), parent first")
      .def_property_readonly("frames", &Model::frames, "list of Frame (a copy)")
      .def_property_readonly("loops", &Model::loops, "list of Loop (a copy), one per URDF+ <loop> embedded in a cluster")
      .def_property_readonly("kept_loop_groups", &Model::keptLoopGroups,
                             "list of KeptLoopGroup (a copy): loops and couplings kept as constraint rows")
      .def_property_readonly("loop_constraints", &Model::keptLoopGroups, "old name of kept_loop_groups, kept for scripts")
      .def("body_index", &Model::bodyIndex, py::arg("link_name"), "Index of the body of a link; InputError if unknown.")
      .def("frame_index", &Model::frameIndex, py::arg("name"), "Index of a frame (every URDF link); InputError if unknown.")
      .def_property_readonly("has_constraints", &Model::hasConstraints, "some cluster has loops or couplings")
      .def_property_readonly("is_floating_base", &Model::isFloatingBase, "the root joint is free (q starts with [x y z qw qx qy qz])")
      .def_property_readonly("position_names", &Model::positionNames, "names of the independent positions (q)")
      .def_property_readonly("velocity_names", &Model::velocityNames, "names of the independent velocities (v, tau, qdd)")
      .def_property_readonly("spanning_position_names", &Model::spanningPositionNames, "names of the spanning-tree positions (every joint)")
      .def_property_readonly("spanning_velocity_names", &Model::spanningVelocityNames, "names of the spanning-tree velocities")
      .def_property(
          "gravity", [](const Model& model) { return model.gravity(); },
          [](Model& model, ArrayLike g) { model.setGravity(toVec3(g, "gravity")); },
          "gravity a_g in world coordinates (m/s^2), default (0, 0, -9.81), for every Data without its own "
          "(Data.set_gravity). Set it before sharing the model between threads; per-thread gravity goes through "
          "Data.set_gravity.")
      .def("neutral_configuration", &Model::neutralConfiguration,
           "An independent configuration at which every loop closes, length nq: zeros (unit quaternion "
           "[1, 0, 0, 0] for free joints) except in loop clusters whose zero pose cannot be closed or is singular "
           "(four_bar.urdf's links on one line at 0), which take the first closed pose the build found (0.3 for "
           "four_bar.urdf). Every algorithm accepts it; it is the as-built assembly mode's pose.")
      .def("neutral_spanning_configuration", &Model::neutralSpanningConfiguration,
           "Spanning configuration of zeros (unit quaternions); may violate the loops. Length nq_spanning.")
      .def("__repr__", [](const Model& model) {
        return "<grbda.Model '" + model.name() + "': " + std::to_string(model.numBodies()) + " bodies, " +
               std::to_string(model.numClusters()) + " clusters, nq=" + std::to_string(model.nq()) +
               ", nv=" + std::to_string(model.nv()) + ">";
      });
}

}  // namespace

void bindModel(py::module_& m) {
  bindTransform(m);
  bindParts(m);
  bindModelClass(m);
}

}  // namespace grbda::python

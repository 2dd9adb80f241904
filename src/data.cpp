#include "grbda/data.hpp"

namespace grbda {

Data::Data(const Model& model) {
  const auto n = static_cast<size_t>(model.numBodies());
  Xup.resize(n);
  Xa.resize(n);
  v.assign(n, Vec6::Zero());
  a.assign(n, Vec6::Zero());
  c.assign(n, Vec6::Zero());
  f.assign(n, Vec6::Zero());
  IA.assign(n, Mat6::Zero());
  U.assign(n, Mat6::Zero());
  Dinv.assign(n, Mat6::Zero());
  u.assign(n, Vec6::Zero());
  Ic.assign(n, Mat6::Zero());
  tau = VecX::Zero(model.nv());
  qdd = VecX::Zero(model.nv());
  C = VecX::Zero(model.nv());
  H = MatX::Zero(model.nv(), model.nv());
  zeroV = VecX::Zero(model.nv());
}

}  // namespace grbda

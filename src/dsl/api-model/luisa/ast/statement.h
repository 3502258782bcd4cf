#pragma once
namespace luisa::compute {
class Statement {};
class ScopeStmt : public Statement {};
class IfStmt : public Statement {};
class LoopStmt : public Statement {};
class ForStmt : public Statement {};
class SwitchStmt : public Statement {};
class SwitchCaseStmt : public Statement {};
class SwitchDefaultStmt : public Statement {};
class AutoDiffStmt : public Statement {};
}// namespace luisa::compute

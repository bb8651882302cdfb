/*eslint-disable block-scoped-var, id-length, no-control-regex, no-magic-numbers, no-prototype-builtins, no-redeclare, no-shadow, no-var, sort-vars*/
"use strict";

var $protobuf = require("protobufjs/minimal");

// Common aliases
var $Reader = $protobuf.Reader, $Writer = $protobuf.Writer, $util = $protobuf.util;

// Exported root namespace
var $root = $protobuf.roots["default"] || ($protobuf.roots["default"] = {});

$root.farm = (function() {

    /**
     * Namespace farm.
     * @exports farm
     * @namespace
     */
    var farm = {};

    farm.v1 = (function() {

        /**
         * Namespace v1.
         * @memberof farm
         * @namespace
         */
        var v1 = {};

        v1.ChangeRequest = (function() {

            /**
             * Properties of a ChangeRequest.
             * @memberof farm.v1
             * @interface IChangeRequest
             * @property {string|null} [changeRequestId] ChangeRequest changeRequestId
             * @property {farm.v1.IRepoRef|null} [repo] ChangeRequest repo
             * @property {string|null} [title] ChangeRequest title
             * @property {string|null} [description] ChangeRequest description
             * @property {string|null} [requestedBy] ChangeRequest requestedBy
             * @property {number|null} [createdAtMs] ChangeRequest createdAtMs
             * @property {string|null} [checkCommand] ChangeRequest checkCommand
             * @property {string|null} [integrationBranch] ChangeRequest integrationBranch
             * @property {boolean|null} [requireApproval] ChangeRequest requireApproval
             */

            /**
             * Constructs a new ChangeRequest.
             * @memberof farm.v1
             * @classdesc Represents a ChangeRequest.
             * @implements IChangeRequest
             * @constructor
             * @param {farm.v1.IChangeRequest=} [p] Properties to set
             */
            function ChangeRequest(p) {
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * ChangeRequest changeRequestId.
             * @member {string} changeRequestId
             * @memberof farm.v1.ChangeRequest
             * @instance
             */
            ChangeRequest.prototype.changeRequestId = "";

            /**
             * ChangeRequest repo.
             * @member {farm.v1.IRepoRef|null|undefined} repo
             * @memberof farm.v1.ChangeRequest
             * @instance
             */
            ChangeRequest.prototype.repo = null;

            /**
             * ChangeRequest title.
             * @member {string} title
             * @memberof farm.v1.ChangeRequest
             * @instance
             */
            ChangeRequest.prototype.title = "";

            /**
             * ChangeRequest description.
             * @member {string} description
             * @memberof farm.v1.ChangeRequest
             * @instance
             */
            ChangeRequest.prototype.description = "";

            /**
             * ChangeRequest requestedBy.
             * @member {string} requestedBy
             * @memberof farm.v1.ChangeRequest
             * @instance
             */
            ChangeRequest.prototype.requestedBy = "";

            /**
             * ChangeRequest createdAtMs.
             * @member {number} createdAtMs
             * @memberof farm.v1.ChangeRequest
             * @instance
             */
            ChangeRequest.prototype.createdAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            /**
             * ChangeRequest checkCommand.
             * @member {string} checkCommand
             * @memberof farm.v1.ChangeRequest
             * @instance
             */
            ChangeRequest.prototype.checkCommand = "";

            /**
             * ChangeRequest integrationBranch.
             * @member {string} integrationBranch
             * @memberof farm.v1.ChangeRequest
             * @instance
             */
            ChangeRequest.prototype.integrationBranch = "";

            /**
             * ChangeRequest requireApproval.
             * @member {boolean} requireApproval
             * @memberof farm.v1.ChangeRequest
             * @instance
             */
            ChangeRequest.prototype.requireApproval = false;

            /**
             * Creates a new ChangeRequest instance using the specified properties.
             * @function create
             * @memberof farm.v1.ChangeRequest
             * @static
             * @param {farm.v1.IChangeRequest=} [properties] Properties to set
             * @returns {farm.v1.ChangeRequest} ChangeRequest instance
             */
            ChangeRequest.create = function create(properties) {
                return new ChangeRequest(properties);
            };

            /**
             * Encodes the specified ChangeRequest message. Does not implicitly {@link farm.v1.ChangeRequest.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.ChangeRequest
             * @static
             * @param {farm.v1.IChangeRequest} m ChangeRequest message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ChangeRequest.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId"))
                    w.uint32(10).string(m.changeRequestId);
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo"))
                    $root.farm.v1.RepoRef.encode(m.repo, w.uint32(18).fork(), q + 1).ldelim();
                if (m.title != null && Object.hasOwnProperty.call(m, "title"))
                    w.uint32(26).string(m.title);
                if (m.description != null && Object.hasOwnProperty.call(m, "description"))
                    w.uint32(34).string(m.description);
                if (m.requestedBy != null && Object.hasOwnProperty.call(m, "requestedBy"))
                    w.uint32(42).string(m.requestedBy);
                if (m.createdAtMs != null && Object.hasOwnProperty.call(m, "createdAtMs"))
                    w.uint32(48).int64(m.createdAtMs);
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand"))
                    w.uint32(58).string(m.checkCommand);
                if (m.integrationBranch != null && Object.hasOwnProperty.call(m, "integrationBranch"))
                    w.uint32(66).string(m.integrationBranch);
                if (m.requireApproval != null && Object.hasOwnProperty.call(m, "requireApproval"))
                    w.uint32(72).bool(m.requireApproval);
                return w;
            };

            /**
             * Encodes the specified ChangeRequest message, length delimited. Does not implicitly {@link farm.v1.ChangeRequest.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.ChangeRequest
             * @static
             * @param {farm.v1.IChangeRequest} message ChangeRequest message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ChangeRequest.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a ChangeRequest message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.ChangeRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.ChangeRequest} ChangeRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ChangeRequest.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.ChangeRequest();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.changeRequestId = r.string();
                            break;
                        }
                    case 2: {
                            m.repo = $root.farm.v1.RepoRef.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    case 3: {
                            m.title = r.string();
                            break;
                        }
                    case 4: {
                            m.description = r.string();
                            break;
                        }
                    case 5: {
                            m.requestedBy = r.string();
                            break;
                        }
                    case 6: {
                            m.createdAtMs = r.int64();
                            break;
                        }
                    case 7: {
                            m.checkCommand = r.string();
                            break;
                        }
                    case 8: {
                            m.integrationBranch = r.string();
                            break;
                        }
                    case 9: {
                            m.requireApproval = r.bool();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a ChangeRequest message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.ChangeRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.ChangeRequest} ChangeRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ChangeRequest.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a ChangeRequest message.
             * @function verify
             * @memberof farm.v1.ChangeRequest
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ChangeRequest.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    if (!$util.isString(m.changeRequestId))
                        return "changeRequestId: string expected";
                }
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo")) {
                    {
                        var e = $root.farm.v1.RepoRef.verify(m.repo, n + 1);
                        if (e)
                            return "repo." + e;
                    }
                }
                if (m.title != null && Object.hasOwnProperty.call(m, "title")) {
                    if (!$util.isString(m.title))
                        return "title: string expected";
                }
                if (m.description != null && Object.hasOwnProperty.call(m, "description")) {
                    if (!$util.isString(m.description))
                        return "description: string expected";
                }
                if (m.requestedBy != null && Object.hasOwnProperty.call(m, "requestedBy")) {
                    if (!$util.isString(m.requestedBy))
                        return "requestedBy: string expected";
                }
                if (m.createdAtMs != null && Object.hasOwnProperty.call(m, "createdAtMs")) {
                    if (!$util.isInteger(m.createdAtMs) && !(m.createdAtMs && $util.isInteger(m.createdAtMs.low) && $util.isInteger(m.createdAtMs.high)))
                        return "createdAtMs: integer|Long expected";
                }
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand")) {
                    if (!$util.isString(m.checkCommand))
                        return "checkCommand: string expected";
                }
                if (m.integrationBranch != null && Object.hasOwnProperty.call(m, "integrationBranch")) {
                    if (!$util.isString(m.integrationBranch))
                        return "integrationBranch: string expected";
                }
                if (m.requireApproval != null && Object.hasOwnProperty.call(m, "requireApproval")) {
                    if (typeof m.requireApproval !== "boolean")
                        return "requireApproval: boolean expected";
                }
                return null;
            };

            /**
             * Creates a ChangeRequest message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.ChangeRequest
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.ChangeRequest} ChangeRequest
             */
            ChangeRequest.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.ChangeRequest)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.ChangeRequest: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.ChangeRequest();
                if (d.changeRequestId != null) {
                    m.changeRequestId = String(d.changeRequestId);
                }
                if (d.repo != null) {
                    if (!$util.isObject(d.repo))
                        throw TypeError(".farm.v1.ChangeRequest.repo: object expected");
                    m.repo = $root.farm.v1.RepoRef.fromObject(d.repo, n + 1);
                }
                if (d.title != null) {
                    m.title = String(d.title);
                }
                if (d.description != null) {
                    m.description = String(d.description);
                }
                if (d.requestedBy != null) {
                    m.requestedBy = String(d.requestedBy);
                }
                if (d.createdAtMs != null) {
                    if ($util.Long)
                        m.createdAtMs = $util.Long.fromValue(d.createdAtMs, false);
                    else if (typeof d.createdAtMs === "string")
                        m.createdAtMs = parseInt(d.createdAtMs, 10);
                    else if (typeof d.createdAtMs === "number")
                        m.createdAtMs = d.createdAtMs;
                    else if (typeof d.createdAtMs === "object")
                        m.createdAtMs = new $util.LongBits(d.createdAtMs.low >>> 0, d.createdAtMs.high >>> 0).toNumber();
                }
                if (d.checkCommand != null) {
                    m.checkCommand = String(d.checkCommand);
                }
                if (d.integrationBranch != null) {
                    m.integrationBranch = String(d.integrationBranch);
                }
                if (d.requireApproval != null) {
                    m.requireApproval = Boolean(d.requireApproval);
                }
                return m;
            };

            /**
             * Creates a plain object from a ChangeRequest message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.ChangeRequest
             * @static
             * @param {farm.v1.ChangeRequest} m ChangeRequest
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ChangeRequest.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.defaults) {
                    d.changeRequestId = "";
                    d.repo = null;
                    d.title = "";
                    d.description = "";
                    d.requestedBy = "";
                    if ($util.Long) {
                        var n = new $util.Long(0, 0, false);
                        d.createdAtMs = o.longs === String ? n.toString() : o.longs === Number ? n.toNumber() : typeof BigInt !== "undefined" && o.longs === BigInt ? n.toBigInt() : n;
                    } else
                        d.createdAtMs = o.longs === String ? "0" : typeof BigInt !== "undefined" && o.longs === BigInt ? BigInt("0") : 0;
                    d.checkCommand = "";
                    d.integrationBranch = "";
                    d.requireApproval = false;
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    d.changeRequestId = m.changeRequestId;
                }
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo")) {
                    d.repo = $root.farm.v1.RepoRef.toObject(m.repo, o, q + 1);
                }
                if (m.title != null && Object.hasOwnProperty.call(m, "title")) {
                    d.title = m.title;
                }
                if (m.description != null && Object.hasOwnProperty.call(m, "description")) {
                    d.description = m.description;
                }
                if (m.requestedBy != null && Object.hasOwnProperty.call(m, "requestedBy")) {
                    d.requestedBy = m.requestedBy;
                }
                if (m.createdAtMs != null && Object.hasOwnProperty.call(m, "createdAtMs")) {
                    if (typeof BigInt !== "undefined" && o.longs === BigInt)
                        d.createdAtMs = typeof m.createdAtMs === "number" ? BigInt(m.createdAtMs) : $util.Long.fromBits(m.createdAtMs.low >>> 0, m.createdAtMs.high >>> 0, false).toBigInt();
                    else if (typeof m.createdAtMs === "number")
                        d.createdAtMs = o.longs === String ? String(m.createdAtMs) : m.createdAtMs;
                    else
                        d.createdAtMs = o.longs === String ? $util.Long.prototype.toString.call(m.createdAtMs) : o.longs === Number ? new $util.LongBits(m.createdAtMs.low >>> 0, m.createdAtMs.high >>> 0).toNumber() : m.createdAtMs;
                }
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand")) {
                    d.checkCommand = m.checkCommand;
                }
                if (m.integrationBranch != null && Object.hasOwnProperty.call(m, "integrationBranch")) {
                    d.integrationBranch = m.integrationBranch;
                }
                if (m.requireApproval != null && Object.hasOwnProperty.call(m, "requireApproval")) {
                    d.requireApproval = m.requireApproval;
                }
                return d;
            };

            /**
             * Converts this ChangeRequest to JSON.
             * @function toJSON
             * @memberof farm.v1.ChangeRequest
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ChangeRequest.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for ChangeRequest
             * @function getTypeUrl
             * @memberof farm.v1.ChangeRequest
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            ChangeRequest.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.ChangeRequest";
            };

            return ChangeRequest;
        })();

        /**
         * Phase enum.
         * @name farm.v1.Phase
         * @enum {number}
         * @property {number} PHASE_UNSPECIFIED=0 PHASE_UNSPECIFIED value
         * @property {number} RECEIVED=1 RECEIVED value
         * @property {number} PLANNING=2 PLANNING value
         * @property {number} CODING=3 CODING value
         * @property {number} BUILD=4 BUILD value
         * @property {number} DONE=5 DONE value
         * @property {number} FAILED=6 FAILED value
         * @property {number} CANCELLED=7 CANCELLED value
         * @property {number} AWAITING_APPROVAL=8 AWAITING_APPROVAL value
         */
        v1.Phase = (function() {
            var valuesById = {}, values = Object.create(valuesById);
            values[valuesById[0] = "PHASE_UNSPECIFIED"] = 0;
            values[valuesById[1] = "RECEIVED"] = 1;
            values[valuesById[2] = "PLANNING"] = 2;
            values[valuesById[3] = "CODING"] = 3;
            values[valuesById[4] = "BUILD"] = 4;
            values[valuesById[5] = "DONE"] = 5;
            values[valuesById[6] = "FAILED"] = 6;
            values[valuesById[7] = "CANCELLED"] = 7;
            values[valuesById[8] = "AWAITING_APPROVAL"] = 8;
            return values;
        })();

        /**
         * TaskKind enum.
         * @name farm.v1.TaskKind
         * @enum {number}
         * @property {number} TASK_KIND_UNSPECIFIED=0 TASK_KIND_UNSPECIFIED value
         * @property {number} FEATURE=1 FEATURE value
         * @property {number} FIX=2 FIX value
         * @property {number} REFACTOR=3 REFACTOR value
         * @property {number} TEST=4 TEST value
         * @property {number} DOCS=5 DOCS value
         */
        v1.TaskKind = (function() {
            var valuesById = {}, values = Object.create(valuesById);
            values[valuesById[0] = "TASK_KIND_UNSPECIFIED"] = 0;
            values[valuesById[1] = "FEATURE"] = 1;
            values[valuesById[2] = "FIX"] = 2;
            values[valuesById[3] = "REFACTOR"] = 3;
            values[valuesById[4] = "TEST"] = 4;
            values[valuesById[5] = "DOCS"] = 5;
            return values;
        })();

        /**
         * CommitStatus enum.
         * @name farm.v1.CommitStatus
         * @enum {number}
         * @property {number} COMMIT_STATUS_UNSPECIFIED=0 COMMIT_STATUS_UNSPECIFIED value
         * @property {number} SUCCESS=1 SUCCESS value
         * @property {number} SOFT_FAIL=2 SOFT_FAIL value
         * @property {number} HARD_FAIL=3 HARD_FAIL value
         */
        v1.CommitStatus = (function() {
            var valuesById = {}, values = Object.create(valuesById);
            values[valuesById[0] = "COMMIT_STATUS_UNSPECIFIED"] = 0;
            values[valuesById[1] = "SUCCESS"] = 1;
            values[valuesById[2] = "SOFT_FAIL"] = 2;
            values[valuesById[3] = "HARD_FAIL"] = 3;
            return values;
        })();

        /**
         * TaskState enum.
         * @name farm.v1.TaskState
         * @enum {number}
         * @property {number} TASK_STATE_UNSPECIFIED=0 TASK_STATE_UNSPECIFIED value
         * @property {number} TASK_PENDING=1 TASK_PENDING value
         * @property {number} TASK_DISPATCHED=2 TASK_DISPATCHED value
         * @property {number} TASK_SUCCESS=3 TASK_SUCCESS value
         * @property {number} TASK_SOFT_FAIL=4 TASK_SOFT_FAIL value
         * @property {number} TASK_HARD_FAIL=5 TASK_HARD_FAIL value
         * @property {number} TASK_CANCELLED=6 TASK_CANCELLED value
         */
        v1.TaskState = (function() {
            var valuesById = {}, values = Object.create(valuesById);
            values[valuesById[0] = "TASK_STATE_UNSPECIFIED"] = 0;
            values[valuesById[1] = "TASK_PENDING"] = 1;
            values[valuesById[2] = "TASK_DISPATCHED"] = 2;
            values[valuesById[3] = "TASK_SUCCESS"] = 3;
            values[valuesById[4] = "TASK_SOFT_FAIL"] = 4;
            values[valuesById[5] = "TASK_HARD_FAIL"] = 5;
            values[valuesById[6] = "TASK_CANCELLED"] = 6;
            return values;
        })();

        /**
         * BuildStatus enum.
         * @name farm.v1.BuildStatus
         * @enum {number}
         * @property {number} BUILD_STATUS_UNSPECIFIED=0 BUILD_STATUS_UNSPECIFIED value
         * @property {number} BUILD_PASSED=1 BUILD_PASSED value
         * @property {number} BUILD_FAILED=2 BUILD_FAILED value
         * @property {number} MERGE_CONFLICT=3 MERGE_CONFLICT value
         */
        v1.BuildStatus = (function() {
            var valuesById = {}, values = Object.create(valuesById);
            values[valuesById[0] = "BUILD_STATUS_UNSPECIFIED"] = 0;
            values[valuesById[1] = "BUILD_PASSED"] = 1;
            values[valuesById[2] = "BUILD_FAILED"] = 2;
            values[valuesById[3] = "MERGE_CONFLICT"] = 3;
            return values;
        })();

        v1.RepoRef = (function() {

            /**
             * Properties of a RepoRef.
             * @memberof farm.v1
             * @interface IRepoRef
             * @property {string|null} [url] RepoRef url
             * @property {string|null} [baseRef] RepoRef baseRef
             * @property {string|null} [baseCommit] RepoRef baseCommit
             */

            /**
             * Constructs a new RepoRef.
             * @memberof farm.v1
             * @classdesc Represents a RepoRef.
             * @implements IRepoRef
             * @constructor
             * @param {farm.v1.IRepoRef=} [p] Properties to set
             */
            function RepoRef(p) {
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * RepoRef url.
             * @member {string} url
             * @memberof farm.v1.RepoRef
             * @instance
             */
            RepoRef.prototype.url = "";

            /**
             * RepoRef baseRef.
             * @member {string} baseRef
             * @memberof farm.v1.RepoRef
             * @instance
             */
            RepoRef.prototype.baseRef = "";

            /**
             * RepoRef baseCommit.
             * @member {string} baseCommit
             * @memberof farm.v1.RepoRef
             * @instance
             */
            RepoRef.prototype.baseCommit = "";

            /**
             * Creates a new RepoRef instance using the specified properties.
             * @function create
             * @memberof farm.v1.RepoRef
             * @static
             * @param {farm.v1.IRepoRef=} [properties] Properties to set
             * @returns {farm.v1.RepoRef} RepoRef instance
             */
            RepoRef.create = function create(properties) {
                return new RepoRef(properties);
            };

            /**
             * Encodes the specified RepoRef message. Does not implicitly {@link farm.v1.RepoRef.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.RepoRef
             * @static
             * @param {farm.v1.IRepoRef} m RepoRef message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            RepoRef.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.url != null && Object.hasOwnProperty.call(m, "url"))
                    w.uint32(10).string(m.url);
                if (m.baseRef != null && Object.hasOwnProperty.call(m, "baseRef"))
                    w.uint32(18).string(m.baseRef);
                if (m.baseCommit != null && Object.hasOwnProperty.call(m, "baseCommit"))
                    w.uint32(26).string(m.baseCommit);
                return w;
            };

            /**
             * Encodes the specified RepoRef message, length delimited. Does not implicitly {@link farm.v1.RepoRef.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.RepoRef
             * @static
             * @param {farm.v1.IRepoRef} message RepoRef message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            RepoRef.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a RepoRef message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.RepoRef
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.RepoRef} RepoRef
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            RepoRef.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.RepoRef();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.url = r.string();
                            break;
                        }
                    case 2: {
                            m.baseRef = r.string();
                            break;
                        }
                    case 3: {
                            m.baseCommit = r.string();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a RepoRef message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.RepoRef
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.RepoRef} RepoRef
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            RepoRef.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a RepoRef message.
             * @function verify
             * @memberof farm.v1.RepoRef
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            RepoRef.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.url != null && Object.hasOwnProperty.call(m, "url")) {
                    if (!$util.isString(m.url))
                        return "url: string expected";
                }
                if (m.baseRef != null && Object.hasOwnProperty.call(m, "baseRef")) {
                    if (!$util.isString(m.baseRef))
                        return "baseRef: string expected";
                }
                if (m.baseCommit != null && Object.hasOwnProperty.call(m, "baseCommit")) {
                    if (!$util.isString(m.baseCommit))
                        return "baseCommit: string expected";
                }
                return null;
            };

            /**
             * Creates a RepoRef message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.RepoRef
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.RepoRef} RepoRef
             */
            RepoRef.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.RepoRef)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.RepoRef: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.RepoRef();
                if (d.url != null) {
                    m.url = String(d.url);
                }
                if (d.baseRef != null) {
                    m.baseRef = String(d.baseRef);
                }
                if (d.baseCommit != null) {
                    m.baseCommit = String(d.baseCommit);
                }
                return m;
            };

            /**
             * Creates a plain object from a RepoRef message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.RepoRef
             * @static
             * @param {farm.v1.RepoRef} m RepoRef
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            RepoRef.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.defaults) {
                    d.url = "";
                    d.baseRef = "";
                    d.baseCommit = "";
                }
                if (m.url != null && Object.hasOwnProperty.call(m, "url")) {
                    d.url = m.url;
                }
                if (m.baseRef != null && Object.hasOwnProperty.call(m, "baseRef")) {
                    d.baseRef = m.baseRef;
                }
                if (m.baseCommit != null && Object.hasOwnProperty.call(m, "baseCommit")) {
                    d.baseCommit = m.baseCommit;
                }
                return d;
            };

            /**
             * Converts this RepoRef to JSON.
             * @function toJSON
             * @memberof farm.v1.RepoRef
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            RepoRef.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for RepoRef
             * @function getTypeUrl
             * @memberof farm.v1.RepoRef
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            RepoRef.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.RepoRef";
            };

            return RepoRef;
        })();

        v1.ModelUsage = (function() {

            /**
             * Properties of a ModelUsage.
             * @memberof farm.v1
             * @interface IModelUsage
             * @property {number|null} [calls] ModelUsage calls
             * @property {number|null} [promptTokens] ModelUsage promptTokens
             * @property {number|null} [completionTokens] ModelUsage completionTokens
             * @property {number|null} [totalTokens] ModelUsage totalTokens
             * @property {number|null} [costUsd] ModelUsage costUsd
             * @property {string|null} [model] ModelUsage model
             * @property {boolean|null} [priced] ModelUsage priced
             */

            /**
             * Constructs a new ModelUsage.
             * @memberof farm.v1
             * @classdesc Represents a ModelUsage.
             * @implements IModelUsage
             * @constructor
             * @param {farm.v1.IModelUsage=} [p] Properties to set
             */
            function ModelUsage(p) {
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * ModelUsage calls.
             * @member {number} calls
             * @memberof farm.v1.ModelUsage
             * @instance
             */
            ModelUsage.prototype.calls = 0;

            /**
             * ModelUsage promptTokens.
             * @member {number} promptTokens
             * @memberof farm.v1.ModelUsage
             * @instance
             */
            ModelUsage.prototype.promptTokens = 0;

            /**
             * ModelUsage completionTokens.
             * @member {number} completionTokens
             * @memberof farm.v1.ModelUsage
             * @instance
             */
            ModelUsage.prototype.completionTokens = 0;

            /**
             * ModelUsage totalTokens.
             * @member {number} totalTokens
             * @memberof farm.v1.ModelUsage
             * @instance
             */
            ModelUsage.prototype.totalTokens = 0;

            /**
             * ModelUsage costUsd.
             * @member {number} costUsd
             * @memberof farm.v1.ModelUsage
             * @instance
             */
            ModelUsage.prototype.costUsd = 0;

            /**
             * ModelUsage model.
             * @member {string} model
             * @memberof farm.v1.ModelUsage
             * @instance
             */
            ModelUsage.prototype.model = "";

            /**
             * ModelUsage priced.
             * @member {boolean} priced
             * @memberof farm.v1.ModelUsage
             * @instance
             */
            ModelUsage.prototype.priced = false;

            /**
             * Creates a new ModelUsage instance using the specified properties.
             * @function create
             * @memberof farm.v1.ModelUsage
             * @static
             * @param {farm.v1.IModelUsage=} [properties] Properties to set
             * @returns {farm.v1.ModelUsage} ModelUsage instance
             */
            ModelUsage.create = function create(properties) {
                return new ModelUsage(properties);
            };

            /**
             * Encodes the specified ModelUsage message. Does not implicitly {@link farm.v1.ModelUsage.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.ModelUsage
             * @static
             * @param {farm.v1.IModelUsage} m ModelUsage message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ModelUsage.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.calls != null && Object.hasOwnProperty.call(m, "calls"))
                    w.uint32(8).uint32(m.calls);
                if (m.promptTokens != null && Object.hasOwnProperty.call(m, "promptTokens"))
                    w.uint32(16).uint32(m.promptTokens);
                if (m.completionTokens != null && Object.hasOwnProperty.call(m, "completionTokens"))
                    w.uint32(24).uint32(m.completionTokens);
                if (m.totalTokens != null && Object.hasOwnProperty.call(m, "totalTokens"))
                    w.uint32(32).uint32(m.totalTokens);
                if (m.costUsd != null && Object.hasOwnProperty.call(m, "costUsd"))
                    w.uint32(41).double(m.costUsd);
                if (m.model != null && Object.hasOwnProperty.call(m, "model"))
                    w.uint32(50).string(m.model);
                if (m.priced != null && Object.hasOwnProperty.call(m, "priced"))
                    w.uint32(56).bool(m.priced);
                return w;
            };

            /**
             * Encodes the specified ModelUsage message, length delimited. Does not implicitly {@link farm.v1.ModelUsage.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.ModelUsage
             * @static
             * @param {farm.v1.IModelUsage} message ModelUsage message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ModelUsage.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a ModelUsage message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.ModelUsage
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.ModelUsage} ModelUsage
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ModelUsage.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.ModelUsage();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.calls = r.uint32();
                            break;
                        }
                    case 2: {
                            m.promptTokens = r.uint32();
                            break;
                        }
                    case 3: {
                            m.completionTokens = r.uint32();
                            break;
                        }
                    case 4: {
                            m.totalTokens = r.uint32();
                            break;
                        }
                    case 5: {
                            m.costUsd = r.double();
                            break;
                        }
                    case 6: {
                            m.model = r.string();
                            break;
                        }
                    case 7: {
                            m.priced = r.bool();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a ModelUsage message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.ModelUsage
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.ModelUsage} ModelUsage
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ModelUsage.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a ModelUsage message.
             * @function verify
             * @memberof farm.v1.ModelUsage
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ModelUsage.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.calls != null && Object.hasOwnProperty.call(m, "calls")) {
                    if (!$util.isInteger(m.calls))
                        return "calls: integer expected";
                }
                if (m.promptTokens != null && Object.hasOwnProperty.call(m, "promptTokens")) {
                    if (!$util.isInteger(m.promptTokens))
                        return "promptTokens: integer expected";
                }
                if (m.completionTokens != null && Object.hasOwnProperty.call(m, "completionTokens")) {
                    if (!$util.isInteger(m.completionTokens))
                        return "completionTokens: integer expected";
                }
                if (m.totalTokens != null && Object.hasOwnProperty.call(m, "totalTokens")) {
                    if (!$util.isInteger(m.totalTokens))
                        return "totalTokens: integer expected";
                }
                if (m.costUsd != null && Object.hasOwnProperty.call(m, "costUsd")) {
                    if (typeof m.costUsd !== "number")
                        return "costUsd: number expected";
                }
                if (m.model != null && Object.hasOwnProperty.call(m, "model")) {
                    if (!$util.isString(m.model))
                        return "model: string expected";
                }
                if (m.priced != null && Object.hasOwnProperty.call(m, "priced")) {
                    if (typeof m.priced !== "boolean")
                        return "priced: boolean expected";
                }
                return null;
            };

            /**
             * Creates a ModelUsage message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.ModelUsage
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.ModelUsage} ModelUsage
             */
            ModelUsage.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.ModelUsage)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.ModelUsage: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.ModelUsage();
                if (d.calls != null) {
                    m.calls = d.calls >>> 0;
                }
                if (d.promptTokens != null) {
                    m.promptTokens = d.promptTokens >>> 0;
                }
                if (d.completionTokens != null) {
                    m.completionTokens = d.completionTokens >>> 0;
                }
                if (d.totalTokens != null) {
                    m.totalTokens = d.totalTokens >>> 0;
                }
                if (d.costUsd != null) {
                    m.costUsd = Number(d.costUsd);
                }
                if (d.model != null) {
                    m.model = String(d.model);
                }
                if (d.priced != null) {
                    m.priced = Boolean(d.priced);
                }
                return m;
            };

            /**
             * Creates a plain object from a ModelUsage message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.ModelUsage
             * @static
             * @param {farm.v1.ModelUsage} m ModelUsage
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ModelUsage.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.defaults) {
                    d.calls = 0;
                    d.promptTokens = 0;
                    d.completionTokens = 0;
                    d.totalTokens = 0;
                    d.costUsd = 0;
                    d.model = "";
                    d.priced = false;
                }
                if (m.calls != null && Object.hasOwnProperty.call(m, "calls")) {
                    d.calls = m.calls;
                }
                if (m.promptTokens != null && Object.hasOwnProperty.call(m, "promptTokens")) {
                    d.promptTokens = m.promptTokens;
                }
                if (m.completionTokens != null && Object.hasOwnProperty.call(m, "completionTokens")) {
                    d.completionTokens = m.completionTokens;
                }
                if (m.totalTokens != null && Object.hasOwnProperty.call(m, "totalTokens")) {
                    d.totalTokens = m.totalTokens;
                }
                if (m.costUsd != null && Object.hasOwnProperty.call(m, "costUsd")) {
                    d.costUsd = o.json && !isFinite(m.costUsd) ? String(m.costUsd) : m.costUsd;
                }
                if (m.model != null && Object.hasOwnProperty.call(m, "model")) {
                    d.model = m.model;
                }
                if (m.priced != null && Object.hasOwnProperty.call(m, "priced")) {
                    d.priced = m.priced;
                }
                return d;
            };

            /**
             * Converts this ModelUsage to JSON.
             * @function toJSON
             * @memberof farm.v1.ModelUsage
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ModelUsage.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for ModelUsage
             * @function getTypeUrl
             * @memberof farm.v1.ModelUsage
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            ModelUsage.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.ModelUsage";
            };

            return ModelUsage;
        })();

        v1.PhaseTransition = (function() {

            /**
             * Properties of a PhaseTransition.
             * @memberof farm.v1
             * @interface IPhaseTransition
             * @property {string|null} [changeRequestId] PhaseTransition changeRequestId
             * @property {farm.v1.Phase|null} [fromPhase] PhaseTransition fromPhase
             * @property {farm.v1.Phase|null} [toPhase] PhaseTransition toPhase
             * @property {number|null} [sequence] PhaseTransition sequence
             * @property {string|null} [reason] PhaseTransition reason
             * @property {number|null} [atMs] PhaseTransition atMs
             * @property {string|null} [taskId] PhaseTransition taskId
             * @property {farm.v1.CommitStatus|null} [taskStatus] PhaseTransition taskStatus
             * @property {string|null} [branchName] PhaseTransition branchName
             * @property {farm.v1.TaskState|null} [taskState] PhaseTransition taskState
             */

            /**
             * Constructs a new PhaseTransition.
             * @memberof farm.v1
             * @classdesc Represents a PhaseTransition.
             * @implements IPhaseTransition
             * @constructor
             * @param {farm.v1.IPhaseTransition=} [p] Properties to set
             */
            function PhaseTransition(p) {
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * PhaseTransition changeRequestId.
             * @member {string} changeRequestId
             * @memberof farm.v1.PhaseTransition
             * @instance
             */
            PhaseTransition.prototype.changeRequestId = "";

            /**
             * PhaseTransition fromPhase.
             * @member {farm.v1.Phase} fromPhase
             * @memberof farm.v1.PhaseTransition
             * @instance
             */
            PhaseTransition.prototype.fromPhase = 0;

            /**
             * PhaseTransition toPhase.
             * @member {farm.v1.Phase} toPhase
             * @memberof farm.v1.PhaseTransition
             * @instance
             */
            PhaseTransition.prototype.toPhase = 0;

            /**
             * PhaseTransition sequence.
             * @member {number} sequence
             * @memberof farm.v1.PhaseTransition
             * @instance
             */
            PhaseTransition.prototype.sequence = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            /**
             * PhaseTransition reason.
             * @member {string} reason
             * @memberof farm.v1.PhaseTransition
             * @instance
             */
            PhaseTransition.prototype.reason = "";

            /**
             * PhaseTransition atMs.
             * @member {number} atMs
             * @memberof farm.v1.PhaseTransition
             * @instance
             */
            PhaseTransition.prototype.atMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            /**
             * PhaseTransition taskId.
             * @member {string} taskId
             * @memberof farm.v1.PhaseTransition
             * @instance
             */
            PhaseTransition.prototype.taskId = "";

            /**
             * PhaseTransition taskStatus.
             * @member {farm.v1.CommitStatus} taskStatus
             * @memberof farm.v1.PhaseTransition
             * @instance
             */
            PhaseTransition.prototype.taskStatus = 0;

            /**
             * PhaseTransition branchName.
             * @member {string} branchName
             * @memberof farm.v1.PhaseTransition
             * @instance
             */
            PhaseTransition.prototype.branchName = "";

            /**
             * PhaseTransition taskState.
             * @member {farm.v1.TaskState} taskState
             * @memberof farm.v1.PhaseTransition
             * @instance
             */
            PhaseTransition.prototype.taskState = 0;

            /**
             * Creates a new PhaseTransition instance using the specified properties.
             * @function create
             * @memberof farm.v1.PhaseTransition
             * @static
             * @param {farm.v1.IPhaseTransition=} [properties] Properties to set
             * @returns {farm.v1.PhaseTransition} PhaseTransition instance
             */
            PhaseTransition.create = function create(properties) {
                return new PhaseTransition(properties);
            };

            /**
             * Encodes the specified PhaseTransition message. Does not implicitly {@link farm.v1.PhaseTransition.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.PhaseTransition
             * @static
             * @param {farm.v1.IPhaseTransition} m PhaseTransition message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            PhaseTransition.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId"))
                    w.uint32(10).string(m.changeRequestId);
                if (m.fromPhase != null && Object.hasOwnProperty.call(m, "fromPhase"))
                    w.uint32(16).int32(m.fromPhase);
                if (m.toPhase != null && Object.hasOwnProperty.call(m, "toPhase"))
                    w.uint32(24).int32(m.toPhase);
                if (m.sequence != null && Object.hasOwnProperty.call(m, "sequence"))
                    w.uint32(32).uint64(m.sequence);
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason"))
                    w.uint32(42).string(m.reason);
                if (m.atMs != null && Object.hasOwnProperty.call(m, "atMs"))
                    w.uint32(48).int64(m.atMs);
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId"))
                    w.uint32(58).string(m.taskId);
                if (m.taskStatus != null && Object.hasOwnProperty.call(m, "taskStatus"))
                    w.uint32(64).int32(m.taskStatus);
                if (m.branchName != null && Object.hasOwnProperty.call(m, "branchName"))
                    w.uint32(74).string(m.branchName);
                if (m.taskState != null && Object.hasOwnProperty.call(m, "taskState"))
                    w.uint32(88).int32(m.taskState);
                return w;
            };

            /**
             * Encodes the specified PhaseTransition message, length delimited. Does not implicitly {@link farm.v1.PhaseTransition.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.PhaseTransition
             * @static
             * @param {farm.v1.IPhaseTransition} message PhaseTransition message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            PhaseTransition.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a PhaseTransition message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.PhaseTransition
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.PhaseTransition} PhaseTransition
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            PhaseTransition.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.PhaseTransition();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.changeRequestId = r.string();
                            break;
                        }
                    case 2: {
                            m.fromPhase = r.int32();
                            break;
                        }
                    case 3: {
                            m.toPhase = r.int32();
                            break;
                        }
                    case 4: {
                            m.sequence = r.uint64();
                            break;
                        }
                    case 5: {
                            m.reason = r.string();
                            break;
                        }
                    case 6: {
                            m.atMs = r.int64();
                            break;
                        }
                    case 7: {
                            m.taskId = r.string();
                            break;
                        }
                    case 8: {
                            m.taskStatus = r.int32();
                            break;
                        }
                    case 9: {
                            m.branchName = r.string();
                            break;
                        }
                    case 11: {
                            m.taskState = r.int32();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a PhaseTransition message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.PhaseTransition
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.PhaseTransition} PhaseTransition
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            PhaseTransition.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a PhaseTransition message.
             * @function verify
             * @memberof farm.v1.PhaseTransition
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            PhaseTransition.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    if (!$util.isString(m.changeRequestId))
                        return "changeRequestId: string expected";
                }
                if (m.fromPhase != null && Object.hasOwnProperty.call(m, "fromPhase")) {
                    switch (m.fromPhase) {
                    default:
                        return "fromPhase: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                    case 4:
                    case 5:
                    case 6:
                    case 7:
                    case 8:
                        break;
                    }
                }
                if (m.toPhase != null && Object.hasOwnProperty.call(m, "toPhase")) {
                    switch (m.toPhase) {
                    default:
                        return "toPhase: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                    case 4:
                    case 5:
                    case 6:
                    case 7:
                    case 8:
                        break;
                    }
                }
                if (m.sequence != null && Object.hasOwnProperty.call(m, "sequence")) {
                    if (!$util.isInteger(m.sequence) && !(m.sequence && $util.isInteger(m.sequence.low) && $util.isInteger(m.sequence.high)))
                        return "sequence: integer|Long expected";
                }
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason")) {
                    if (!$util.isString(m.reason))
                        return "reason: string expected";
                }
                if (m.atMs != null && Object.hasOwnProperty.call(m, "atMs")) {
                    if (!$util.isInteger(m.atMs) && !(m.atMs && $util.isInteger(m.atMs.low) && $util.isInteger(m.atMs.high)))
                        return "atMs: integer|Long expected";
                }
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId")) {
                    if (!$util.isString(m.taskId))
                        return "taskId: string expected";
                }
                if (m.taskStatus != null && Object.hasOwnProperty.call(m, "taskStatus")) {
                    switch (m.taskStatus) {
                    default:
                        return "taskStatus: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                        break;
                    }
                }
                if (m.branchName != null && Object.hasOwnProperty.call(m, "branchName")) {
                    if (!$util.isString(m.branchName))
                        return "branchName: string expected";
                }
                if (m.taskState != null && Object.hasOwnProperty.call(m, "taskState")) {
                    switch (m.taskState) {
                    default:
                        return "taskState: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                    case 4:
                    case 5:
                    case 6:
                        break;
                    }
                }
                return null;
            };

            /**
             * Creates a PhaseTransition message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.PhaseTransition
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.PhaseTransition} PhaseTransition
             */
            PhaseTransition.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.PhaseTransition)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.PhaseTransition: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.PhaseTransition();
                if (d.changeRequestId != null) {
                    m.changeRequestId = String(d.changeRequestId);
                }
                switch (d.fromPhase) {
                default:
                    if (typeof d.fromPhase === "number") {
                        m.fromPhase = d.fromPhase;
                        break;
                    }
                    break;
                case "PHASE_UNSPECIFIED":
                case 0:
                    m.fromPhase = 0;
                    break;
                case "RECEIVED":
                case 1:
                    m.fromPhase = 1;
                    break;
                case "PLANNING":
                case 2:
                    m.fromPhase = 2;
                    break;
                case "CODING":
                case 3:
                    m.fromPhase = 3;
                    break;
                case "BUILD":
                case 4:
                    m.fromPhase = 4;
                    break;
                case "DONE":
                case 5:
                    m.fromPhase = 5;
                    break;
                case "FAILED":
                case 6:
                    m.fromPhase = 6;
                    break;
                case "CANCELLED":
                case 7:
                    m.fromPhase = 7;
                    break;
                case "AWAITING_APPROVAL":
                case 8:
                    m.fromPhase = 8;
                    break;
                }
                switch (d.toPhase) {
                default:
                    if (typeof d.toPhase === "number") {
                        m.toPhase = d.toPhase;
                        break;
                    }
                    break;
                case "PHASE_UNSPECIFIED":
                case 0:
                    m.toPhase = 0;
                    break;
                case "RECEIVED":
                case 1:
                    m.toPhase = 1;
                    break;
                case "PLANNING":
                case 2:
                    m.toPhase = 2;
                    break;
                case "CODING":
                case 3:
                    m.toPhase = 3;
                    break;
                case "BUILD":
                case 4:
                    m.toPhase = 4;
                    break;
                case "DONE":
                case 5:
                    m.toPhase = 5;
                    break;
                case "FAILED":
                case 6:
                    m.toPhase = 6;
                    break;
                case "CANCELLED":
                case 7:
                    m.toPhase = 7;
                    break;
                case "AWAITING_APPROVAL":
                case 8:
                    m.toPhase = 8;
                    break;
                }
                if (d.sequence != null) {
                    if ($util.Long)
                        m.sequence = $util.Long.fromValue(d.sequence, true);
                    else if (typeof d.sequence === "string")
                        m.sequence = parseInt(d.sequence, 10);
                    else if (typeof d.sequence === "number")
                        m.sequence = d.sequence;
                    else if (typeof d.sequence === "object")
                        m.sequence = new $util.LongBits(d.sequence.low >>> 0, d.sequence.high >>> 0).toNumber(true);
                }
                if (d.reason != null) {
                    m.reason = String(d.reason);
                }
                if (d.atMs != null) {
                    if ($util.Long)
                        m.atMs = $util.Long.fromValue(d.atMs, false);
                    else if (typeof d.atMs === "string")
                        m.atMs = parseInt(d.atMs, 10);
                    else if (typeof d.atMs === "number")
                        m.atMs = d.atMs;
                    else if (typeof d.atMs === "object")
                        m.atMs = new $util.LongBits(d.atMs.low >>> 0, d.atMs.high >>> 0).toNumber();
                }
                if (d.taskId != null) {
                    m.taskId = String(d.taskId);
                }
                switch (d.taskStatus) {
                default:
                    if (typeof d.taskStatus === "number") {
                        m.taskStatus = d.taskStatus;
                        break;
                    }
                    break;
                case "COMMIT_STATUS_UNSPECIFIED":
                case 0:
                    m.taskStatus = 0;
                    break;
                case "SUCCESS":
                case 1:
                    m.taskStatus = 1;
                    break;
                case "SOFT_FAIL":
                case 2:
                    m.taskStatus = 2;
                    break;
                case "HARD_FAIL":
                case 3:
                    m.taskStatus = 3;
                    break;
                }
                if (d.branchName != null) {
                    m.branchName = String(d.branchName);
                }
                switch (d.taskState) {
                default:
                    if (typeof d.taskState === "number") {
                        m.taskState = d.taskState;
                        break;
                    }
                    break;
                case "TASK_STATE_UNSPECIFIED":
                case 0:
                    m.taskState = 0;
                    break;
                case "TASK_PENDING":
                case 1:
                    m.taskState = 1;
                    break;
                case "TASK_DISPATCHED":
                case 2:
                    m.taskState = 2;
                    break;
                case "TASK_SUCCESS":
                case 3:
                    m.taskState = 3;
                    break;
                case "TASK_SOFT_FAIL":
                case 4:
                    m.taskState = 4;
                    break;
                case "TASK_HARD_FAIL":
                case 5:
                    m.taskState = 5;
                    break;
                case "TASK_CANCELLED":
                case 6:
                    m.taskState = 6;
                    break;
                }
                return m;
            };

            /**
             * Creates a plain object from a PhaseTransition message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.PhaseTransition
             * @static
             * @param {farm.v1.PhaseTransition} m PhaseTransition
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            PhaseTransition.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.defaults) {
                    d.changeRequestId = "";
                    d.fromPhase = o.enums === String ? "PHASE_UNSPECIFIED" : 0;
                    d.toPhase = o.enums === String ? "PHASE_UNSPECIFIED" : 0;
                    if ($util.Long) {
                        var n = new $util.Long(0, 0, true);
                        d.sequence = o.longs === String ? n.toString() : o.longs === Number ? n.toNumber() : typeof BigInt !== "undefined" && o.longs === BigInt ? n.toBigInt() : n;
                    } else
                        d.sequence = o.longs === String ? "0" : typeof BigInt !== "undefined" && o.longs === BigInt ? BigInt("0") : 0;
                    d.reason = "";
                    if ($util.Long) {
                        var n = new $util.Long(0, 0, false);
                        d.atMs = o.longs === String ? n.toString() : o.longs === Number ? n.toNumber() : typeof BigInt !== "undefined" && o.longs === BigInt ? n.toBigInt() : n;
                    } else
                        d.atMs = o.longs === String ? "0" : typeof BigInt !== "undefined" && o.longs === BigInt ? BigInt("0") : 0;
                    d.taskId = "";
                    d.taskStatus = o.enums === String ? "COMMIT_STATUS_UNSPECIFIED" : 0;
                    d.branchName = "";
                    d.taskState = o.enums === String ? "TASK_STATE_UNSPECIFIED" : 0;
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    d.changeRequestId = m.changeRequestId;
                }
                if (m.fromPhase != null && Object.hasOwnProperty.call(m, "fromPhase")) {
                    d.fromPhase = o.enums === String ? $root.farm.v1.Phase[m.fromPhase] === undefined ? m.fromPhase : $root.farm.v1.Phase[m.fromPhase] : m.fromPhase;
                }
                if (m.toPhase != null && Object.hasOwnProperty.call(m, "toPhase")) {
                    d.toPhase = o.enums === String ? $root.farm.v1.Phase[m.toPhase] === undefined ? m.toPhase : $root.farm.v1.Phase[m.toPhase] : m.toPhase;
                }
                if (m.sequence != null && Object.hasOwnProperty.call(m, "sequence")) {
                    if (typeof BigInt !== "undefined" && o.longs === BigInt)
                        d.sequence = typeof m.sequence === "number" ? BigInt(m.sequence) : $util.Long.fromBits(m.sequence.low >>> 0, m.sequence.high >>> 0, true).toBigInt();
                    else if (typeof m.sequence === "number")
                        d.sequence = o.longs === String ? String(m.sequence) : m.sequence;
                    else
                        d.sequence = o.longs === String ? $util.Long.prototype.toString.call(m.sequence) : o.longs === Number ? new $util.LongBits(m.sequence.low >>> 0, m.sequence.high >>> 0).toNumber(true) : m.sequence;
                }
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason")) {
                    d.reason = m.reason;
                }
                if (m.atMs != null && Object.hasOwnProperty.call(m, "atMs")) {
                    if (typeof BigInt !== "undefined" && o.longs === BigInt)
                        d.atMs = typeof m.atMs === "number" ? BigInt(m.atMs) : $util.Long.fromBits(m.atMs.low >>> 0, m.atMs.high >>> 0, false).toBigInt();
                    else if (typeof m.atMs === "number")
                        d.atMs = o.longs === String ? String(m.atMs) : m.atMs;
                    else
                        d.atMs = o.longs === String ? $util.Long.prototype.toString.call(m.atMs) : o.longs === Number ? new $util.LongBits(m.atMs.low >>> 0, m.atMs.high >>> 0).toNumber() : m.atMs;
                }
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId")) {
                    d.taskId = m.taskId;
                }
                if (m.taskStatus != null && Object.hasOwnProperty.call(m, "taskStatus")) {
                    d.taskStatus = o.enums === String ? $root.farm.v1.CommitStatus[m.taskStatus] === undefined ? m.taskStatus : $root.farm.v1.CommitStatus[m.taskStatus] : m.taskStatus;
                }
                if (m.branchName != null && Object.hasOwnProperty.call(m, "branchName")) {
                    d.branchName = m.branchName;
                }
                if (m.taskState != null && Object.hasOwnProperty.call(m, "taskState")) {
                    d.taskState = o.enums === String ? $root.farm.v1.TaskState[m.taskState] === undefined ? m.taskState : $root.farm.v1.TaskState[m.taskState] : m.taskState;
                }
                return d;
            };

            /**
             * Converts this PhaseTransition to JSON.
             * @function toJSON
             * @memberof farm.v1.PhaseTransition
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            PhaseTransition.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for PhaseTransition
             * @function getTypeUrl
             * @memberof farm.v1.PhaseTransition
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            PhaseTransition.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.PhaseTransition";
            };

            return PhaseTransition;
        })();

        v1.BuildRequest = (function() {

            /**
             * Properties of a BuildRequest.
             * @memberof farm.v1
             * @interface IBuildRequest
             * @property {string|null} [changeRequestId] BuildRequest changeRequestId
             * @property {farm.v1.IRepoRef|null} [repo] BuildRequest repo
             * @property {Array.<string>|null} [branches] BuildRequest branches
             * @property {string|null} [checkCommand] BuildRequest checkCommand
             * @property {Array.<string>|null} [commits] BuildRequest commits
             * @property {string|null} [integrationBranch] BuildRequest integrationBranch
             * @property {Array.<farm.v1.IVerification>|null} [verifications] BuildRequest verifications
             * @property {Array.<string>|null} [taskIds] BuildRequest taskIds
             */

            /**
             * Constructs a new BuildRequest.
             * @memberof farm.v1
             * @classdesc Represents a BuildRequest.
             * @implements IBuildRequest
             * @constructor
             * @param {farm.v1.IBuildRequest=} [p] Properties to set
             */
            function BuildRequest(p) {
                this.branches = [];
                this.commits = [];
                this.verifications = [];
                this.taskIds = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * BuildRequest changeRequestId.
             * @member {string} changeRequestId
             * @memberof farm.v1.BuildRequest
             * @instance
             */
            BuildRequest.prototype.changeRequestId = "";

            /**
             * BuildRequest repo.
             * @member {farm.v1.IRepoRef|null|undefined} repo
             * @memberof farm.v1.BuildRequest
             * @instance
             */
            BuildRequest.prototype.repo = null;

            /**
             * BuildRequest branches.
             * @member {Array.<string>} branches
             * @memberof farm.v1.BuildRequest
             * @instance
             */
            BuildRequest.prototype.branches = $util.emptyArray;

            /**
             * BuildRequest checkCommand.
             * @member {string} checkCommand
             * @memberof farm.v1.BuildRequest
             * @instance
             */
            BuildRequest.prototype.checkCommand = "";

            /**
             * BuildRequest commits.
             * @member {Array.<string>} commits
             * @memberof farm.v1.BuildRequest
             * @instance
             */
            BuildRequest.prototype.commits = $util.emptyArray;

            /**
             * BuildRequest integrationBranch.
             * @member {string} integrationBranch
             * @memberof farm.v1.BuildRequest
             * @instance
             */
            BuildRequest.prototype.integrationBranch = "";

            /**
             * BuildRequest verifications.
             * @member {Array.<farm.v1.IVerification>} verifications
             * @memberof farm.v1.BuildRequest
             * @instance
             */
            BuildRequest.prototype.verifications = $util.emptyArray;

            /**
             * BuildRequest taskIds.
             * @member {Array.<string>} taskIds
             * @memberof farm.v1.BuildRequest
             * @instance
             */
            BuildRequest.prototype.taskIds = $util.emptyArray;

            /**
             * Creates a new BuildRequest instance using the specified properties.
             * @function create
             * @memberof farm.v1.BuildRequest
             * @static
             * @param {farm.v1.IBuildRequest=} [properties] Properties to set
             * @returns {farm.v1.BuildRequest} BuildRequest instance
             */
            BuildRequest.create = function create(properties) {
                return new BuildRequest(properties);
            };

            /**
             * Encodes the specified BuildRequest message. Does not implicitly {@link farm.v1.BuildRequest.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.BuildRequest
             * @static
             * @param {farm.v1.IBuildRequest} m BuildRequest message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            BuildRequest.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId"))
                    w.uint32(10).string(m.changeRequestId);
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo"))
                    $root.farm.v1.RepoRef.encode(m.repo, w.uint32(18).fork(), q + 1).ldelim();
                if (m.branches != null && m.branches.length) {
                    for (var i = 0; i < m.branches.length; ++i)
                        w.uint32(26).string(m.branches[i]);
                }
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand"))
                    w.uint32(34).string(m.checkCommand);
                if (m.commits != null && m.commits.length) {
                    for (var i = 0; i < m.commits.length; ++i)
                        w.uint32(42).string(m.commits[i]);
                }
                if (m.integrationBranch != null && Object.hasOwnProperty.call(m, "integrationBranch"))
                    w.uint32(50).string(m.integrationBranch);
                if (m.verifications != null && m.verifications.length) {
                    for (var i = 0; i < m.verifications.length; ++i)
                        $root.farm.v1.Verification.encode(m.verifications[i], w.uint32(58).fork(), q + 1).ldelim();
                }
                if (m.taskIds != null && m.taskIds.length) {
                    for (var i = 0; i < m.taskIds.length; ++i)
                        w.uint32(66).string(m.taskIds[i]);
                }
                return w;
            };

            /**
             * Encodes the specified BuildRequest message, length delimited. Does not implicitly {@link farm.v1.BuildRequest.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.BuildRequest
             * @static
             * @param {farm.v1.IBuildRequest} message BuildRequest message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            BuildRequest.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a BuildRequest message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.BuildRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.BuildRequest} BuildRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            BuildRequest.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.BuildRequest();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.changeRequestId = r.string();
                            break;
                        }
                    case 2: {
                            m.repo = $root.farm.v1.RepoRef.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    case 3: {
                            if (!(m.branches && m.branches.length))
                                m.branches = [];
                            m.branches.push(r.string());
                            break;
                        }
                    case 4: {
                            m.checkCommand = r.string();
                            break;
                        }
                    case 5: {
                            if (!(m.commits && m.commits.length))
                                m.commits = [];
                            m.commits.push(r.string());
                            break;
                        }
                    case 6: {
                            m.integrationBranch = r.string();
                            break;
                        }
                    case 7: {
                            if (!(m.verifications && m.verifications.length))
                                m.verifications = [];
                            m.verifications.push($root.farm.v1.Verification.decode(r, r.uint32(), undefined, n + 1));
                            break;
                        }
                    case 8: {
                            if (!(m.taskIds && m.taskIds.length))
                                m.taskIds = [];
                            m.taskIds.push(r.string());
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a BuildRequest message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.BuildRequest
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.BuildRequest} BuildRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            BuildRequest.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a BuildRequest message.
             * @function verify
             * @memberof farm.v1.BuildRequest
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            BuildRequest.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    if (!$util.isString(m.changeRequestId))
                        return "changeRequestId: string expected";
                }
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo")) {
                    {
                        var e = $root.farm.v1.RepoRef.verify(m.repo, n + 1);
                        if (e)
                            return "repo." + e;
                    }
                }
                if (m.branches != null && Object.hasOwnProperty.call(m, "branches")) {
                    if (!Array.isArray(m.branches))
                        return "branches: array expected";
                    for (var i = 0; i < m.branches.length; ++i) {
                        if (!$util.isString(m.branches[i]))
                            return "branches: string[] expected";
                    }
                }
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand")) {
                    if (!$util.isString(m.checkCommand))
                        return "checkCommand: string expected";
                }
                if (m.commits != null && Object.hasOwnProperty.call(m, "commits")) {
                    if (!Array.isArray(m.commits))
                        return "commits: array expected";
                    for (var i = 0; i < m.commits.length; ++i) {
                        if (!$util.isString(m.commits[i]))
                            return "commits: string[] expected";
                    }
                }
                if (m.integrationBranch != null && Object.hasOwnProperty.call(m, "integrationBranch")) {
                    if (!$util.isString(m.integrationBranch))
                        return "integrationBranch: string expected";
                }
                if (m.verifications != null && Object.hasOwnProperty.call(m, "verifications")) {
                    if (!Array.isArray(m.verifications))
                        return "verifications: array expected";
                    for (var i = 0; i < m.verifications.length; ++i) {
                        {
                            var e = $root.farm.v1.Verification.verify(m.verifications[i], n + 1);
                            if (e)
                                return "verifications." + e;
                        }
                    }
                }
                if (m.taskIds != null && Object.hasOwnProperty.call(m, "taskIds")) {
                    if (!Array.isArray(m.taskIds))
                        return "taskIds: array expected";
                    for (var i = 0; i < m.taskIds.length; ++i) {
                        if (!$util.isString(m.taskIds[i]))
                            return "taskIds: string[] expected";
                    }
                }
                return null;
            };

            /**
             * Creates a BuildRequest message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.BuildRequest
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.BuildRequest} BuildRequest
             */
            BuildRequest.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.BuildRequest)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.BuildRequest: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.BuildRequest();
                if (d.changeRequestId != null) {
                    m.changeRequestId = String(d.changeRequestId);
                }
                if (d.repo != null) {
                    if (!$util.isObject(d.repo))
                        throw TypeError(".farm.v1.BuildRequest.repo: object expected");
                    m.repo = $root.farm.v1.RepoRef.fromObject(d.repo, n + 1);
                }
                if (d.branches) {
                    if (!Array.isArray(d.branches))
                        throw TypeError(".farm.v1.BuildRequest.branches: array expected");
                    m.branches = [];
                    for (var i = 0; i < d.branches.length; ++i) {
                        m.branches[i] = String(d.branches[i]);
                    }
                }
                if (d.checkCommand != null) {
                    m.checkCommand = String(d.checkCommand);
                }
                if (d.commits) {
                    if (!Array.isArray(d.commits))
                        throw TypeError(".farm.v1.BuildRequest.commits: array expected");
                    m.commits = [];
                    for (var i = 0; i < d.commits.length; ++i) {
                        m.commits[i] = String(d.commits[i]);
                    }
                }
                if (d.integrationBranch != null) {
                    m.integrationBranch = String(d.integrationBranch);
                }
                if (d.verifications) {
                    if (!Array.isArray(d.verifications))
                        throw TypeError(".farm.v1.BuildRequest.verifications: array expected");
                    m.verifications = [];
                    for (var i = 0; i < d.verifications.length; ++i) {
                        if (!$util.isObject(d.verifications[i]))
                            throw TypeError(".farm.v1.BuildRequest.verifications: object expected");
                        m.verifications[i] = $root.farm.v1.Verification.fromObject(d.verifications[i], n + 1);
                    }
                }
                if (d.taskIds) {
                    if (!Array.isArray(d.taskIds))
                        throw TypeError(".farm.v1.BuildRequest.taskIds: array expected");
                    m.taskIds = [];
                    for (var i = 0; i < d.taskIds.length; ++i) {
                        m.taskIds[i] = String(d.taskIds[i]);
                    }
                }
                return m;
            };

            /**
             * Creates a plain object from a BuildRequest message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.BuildRequest
             * @static
             * @param {farm.v1.BuildRequest} m BuildRequest
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            BuildRequest.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.branches = [];
                    d.commits = [];
                    d.verifications = [];
                    d.taskIds = [];
                }
                if (o.defaults) {
                    d.changeRequestId = "";
                    d.repo = null;
                    d.checkCommand = "";
                    d.integrationBranch = "";
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    d.changeRequestId = m.changeRequestId;
                }
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo")) {
                    d.repo = $root.farm.v1.RepoRef.toObject(m.repo, o, q + 1);
                }
                if (m.branches && m.branches.length) {
                    d.branches = [];
                    for (var j = 0; j < m.branches.length; ++j) {
                        d.branches[j] = m.branches[j];
                    }
                }
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand")) {
                    d.checkCommand = m.checkCommand;
                }
                if (m.commits && m.commits.length) {
                    d.commits = [];
                    for (var j = 0; j < m.commits.length; ++j) {
                        d.commits[j] = m.commits[j];
                    }
                }
                if (m.integrationBranch != null && Object.hasOwnProperty.call(m, "integrationBranch")) {
                    d.integrationBranch = m.integrationBranch;
                }
                if (m.verifications && m.verifications.length) {
                    d.verifications = [];
                    for (var j = 0; j < m.verifications.length; ++j) {
                        d.verifications[j] = $root.farm.v1.Verification.toObject(m.verifications[j], o, q + 1);
                    }
                }
                if (m.taskIds && m.taskIds.length) {
                    d.taskIds = [];
                    for (var j = 0; j < m.taskIds.length; ++j) {
                        d.taskIds[j] = m.taskIds[j];
                    }
                }
                return d;
            };

            /**
             * Converts this BuildRequest to JSON.
             * @function toJSON
             * @memberof farm.v1.BuildRequest
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            BuildRequest.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for BuildRequest
             * @function getTypeUrl
             * @memberof farm.v1.BuildRequest
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            BuildRequest.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.BuildRequest";
            };

            return BuildRequest;
        })();

        v1.BuildResult = (function() {

            /**
             * Properties of a BuildResult.
             * @memberof farm.v1
             * @interface IBuildResult
             * @property {string|null} [changeRequestId] BuildResult changeRequestId
             * @property {farm.v1.BuildStatus|null} [status] BuildResult status
             * @property {string|null} [integrationBranch] BuildResult integrationBranch
             * @property {string|null} [commitSha] BuildResult commitSha
             * @property {Array.<string>|null} [conflictingPaths] BuildResult conflictingPaths
             * @property {Array.<string>|null} [notes] BuildResult notes
             * @property {string|null} [diff] BuildResult diff
             * @property {boolean|null} [diffTruncated] BuildResult diffTruncated
             */

            /**
             * Constructs a new BuildResult.
             * @memberof farm.v1
             * @classdesc Represents a BuildResult.
             * @implements IBuildResult
             * @constructor
             * @param {farm.v1.IBuildResult=} [p] Properties to set
             */
            function BuildResult(p) {
                this.conflictingPaths = [];
                this.notes = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * BuildResult changeRequestId.
             * @member {string} changeRequestId
             * @memberof farm.v1.BuildResult
             * @instance
             */
            BuildResult.prototype.changeRequestId = "";

            /**
             * BuildResult status.
             * @member {farm.v1.BuildStatus} status
             * @memberof farm.v1.BuildResult
             * @instance
             */
            BuildResult.prototype.status = 0;

            /**
             * BuildResult integrationBranch.
             * @member {string} integrationBranch
             * @memberof farm.v1.BuildResult
             * @instance
             */
            BuildResult.prototype.integrationBranch = "";

            /**
             * BuildResult commitSha.
             * @member {string} commitSha
             * @memberof farm.v1.BuildResult
             * @instance
             */
            BuildResult.prototype.commitSha = "";

            /**
             * BuildResult conflictingPaths.
             * @member {Array.<string>} conflictingPaths
             * @memberof farm.v1.BuildResult
             * @instance
             */
            BuildResult.prototype.conflictingPaths = $util.emptyArray;

            /**
             * BuildResult notes.
             * @member {Array.<string>} notes
             * @memberof farm.v1.BuildResult
             * @instance
             */
            BuildResult.prototype.notes = $util.emptyArray;

            /**
             * BuildResult diff.
             * @member {string} diff
             * @memberof farm.v1.BuildResult
             * @instance
             */
            BuildResult.prototype.diff = "";

            /**
             * BuildResult diffTruncated.
             * @member {boolean} diffTruncated
             * @memberof farm.v1.BuildResult
             * @instance
             */
            BuildResult.prototype.diffTruncated = false;

            /**
             * Creates a new BuildResult instance using the specified properties.
             * @function create
             * @memberof farm.v1.BuildResult
             * @static
             * @param {farm.v1.IBuildResult=} [properties] Properties to set
             * @returns {farm.v1.BuildResult} BuildResult instance
             */
            BuildResult.create = function create(properties) {
                return new BuildResult(properties);
            };

            /**
             * Encodes the specified BuildResult message. Does not implicitly {@link farm.v1.BuildResult.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.BuildResult
             * @static
             * @param {farm.v1.IBuildResult} m BuildResult message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            BuildResult.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId"))
                    w.uint32(10).string(m.changeRequestId);
                if (m.status != null && Object.hasOwnProperty.call(m, "status"))
                    w.uint32(16).int32(m.status);
                if (m.integrationBranch != null && Object.hasOwnProperty.call(m, "integrationBranch"))
                    w.uint32(26).string(m.integrationBranch);
                if (m.commitSha != null && Object.hasOwnProperty.call(m, "commitSha"))
                    w.uint32(34).string(m.commitSha);
                if (m.conflictingPaths != null && m.conflictingPaths.length) {
                    for (var i = 0; i < m.conflictingPaths.length; ++i)
                        w.uint32(42).string(m.conflictingPaths[i]);
                }
                if (m.notes != null && m.notes.length) {
                    for (var i = 0; i < m.notes.length; ++i)
                        w.uint32(50).string(m.notes[i]);
                }
                if (m.diff != null && Object.hasOwnProperty.call(m, "diff"))
                    w.uint32(58).string(m.diff);
                if (m.diffTruncated != null && Object.hasOwnProperty.call(m, "diffTruncated"))
                    w.uint32(64).bool(m.diffTruncated);
                return w;
            };

            /**
             * Encodes the specified BuildResult message, length delimited. Does not implicitly {@link farm.v1.BuildResult.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.BuildResult
             * @static
             * @param {farm.v1.IBuildResult} message BuildResult message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            BuildResult.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a BuildResult message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.BuildResult
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.BuildResult} BuildResult
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            BuildResult.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.BuildResult();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.changeRequestId = r.string();
                            break;
                        }
                    case 2: {
                            m.status = r.int32();
                            break;
                        }
                    case 3: {
                            m.integrationBranch = r.string();
                            break;
                        }
                    case 4: {
                            m.commitSha = r.string();
                            break;
                        }
                    case 5: {
                            if (!(m.conflictingPaths && m.conflictingPaths.length))
                                m.conflictingPaths = [];
                            m.conflictingPaths.push(r.string());
                            break;
                        }
                    case 6: {
                            if (!(m.notes && m.notes.length))
                                m.notes = [];
                            m.notes.push(r.string());
                            break;
                        }
                    case 7: {
                            m.diff = r.string();
                            break;
                        }
                    case 8: {
                            m.diffTruncated = r.bool();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a BuildResult message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.BuildResult
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.BuildResult} BuildResult
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            BuildResult.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a BuildResult message.
             * @function verify
             * @memberof farm.v1.BuildResult
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            BuildResult.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    if (!$util.isString(m.changeRequestId))
                        return "changeRequestId: string expected";
                }
                if (m.status != null && Object.hasOwnProperty.call(m, "status")) {
                    switch (m.status) {
                    default:
                        return "status: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                        break;
                    }
                }
                if (m.integrationBranch != null && Object.hasOwnProperty.call(m, "integrationBranch")) {
                    if (!$util.isString(m.integrationBranch))
                        return "integrationBranch: string expected";
                }
                if (m.commitSha != null && Object.hasOwnProperty.call(m, "commitSha")) {
                    if (!$util.isString(m.commitSha))
                        return "commitSha: string expected";
                }
                if (m.conflictingPaths != null && Object.hasOwnProperty.call(m, "conflictingPaths")) {
                    if (!Array.isArray(m.conflictingPaths))
                        return "conflictingPaths: array expected";
                    for (var i = 0; i < m.conflictingPaths.length; ++i) {
                        if (!$util.isString(m.conflictingPaths[i]))
                            return "conflictingPaths: string[] expected";
                    }
                }
                if (m.notes != null && Object.hasOwnProperty.call(m, "notes")) {
                    if (!Array.isArray(m.notes))
                        return "notes: array expected";
                    for (var i = 0; i < m.notes.length; ++i) {
                        if (!$util.isString(m.notes[i]))
                            return "notes: string[] expected";
                    }
                }
                if (m.diff != null && Object.hasOwnProperty.call(m, "diff")) {
                    if (!$util.isString(m.diff))
                        return "diff: string expected";
                }
                if (m.diffTruncated != null && Object.hasOwnProperty.call(m, "diffTruncated")) {
                    if (typeof m.diffTruncated !== "boolean")
                        return "diffTruncated: boolean expected";
                }
                return null;
            };

            /**
             * Creates a BuildResult message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.BuildResult
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.BuildResult} BuildResult
             */
            BuildResult.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.BuildResult)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.BuildResult: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.BuildResult();
                if (d.changeRequestId != null) {
                    m.changeRequestId = String(d.changeRequestId);
                }
                switch (d.status) {
                default:
                    if (typeof d.status === "number") {
                        m.status = d.status;
                        break;
                    }
                    break;
                case "BUILD_STATUS_UNSPECIFIED":
                case 0:
                    m.status = 0;
                    break;
                case "BUILD_PASSED":
                case 1:
                    m.status = 1;
                    break;
                case "BUILD_FAILED":
                case 2:
                    m.status = 2;
                    break;
                case "MERGE_CONFLICT":
                case 3:
                    m.status = 3;
                    break;
                }
                if (d.integrationBranch != null) {
                    m.integrationBranch = String(d.integrationBranch);
                }
                if (d.commitSha != null) {
                    m.commitSha = String(d.commitSha);
                }
                if (d.conflictingPaths) {
                    if (!Array.isArray(d.conflictingPaths))
                        throw TypeError(".farm.v1.BuildResult.conflictingPaths: array expected");
                    m.conflictingPaths = [];
                    for (var i = 0; i < d.conflictingPaths.length; ++i) {
                        m.conflictingPaths[i] = String(d.conflictingPaths[i]);
                    }
                }
                if (d.notes) {
                    if (!Array.isArray(d.notes))
                        throw TypeError(".farm.v1.BuildResult.notes: array expected");
                    m.notes = [];
                    for (var i = 0; i < d.notes.length; ++i) {
                        m.notes[i] = String(d.notes[i]);
                    }
                }
                if (d.diff != null) {
                    m.diff = String(d.diff);
                }
                if (d.diffTruncated != null) {
                    m.diffTruncated = Boolean(d.diffTruncated);
                }
                return m;
            };

            /**
             * Creates a plain object from a BuildResult message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.BuildResult
             * @static
             * @param {farm.v1.BuildResult} m BuildResult
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            BuildResult.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.conflictingPaths = [];
                    d.notes = [];
                }
                if (o.defaults) {
                    d.changeRequestId = "";
                    d.status = o.enums === String ? "BUILD_STATUS_UNSPECIFIED" : 0;
                    d.integrationBranch = "";
                    d.commitSha = "";
                    d.diff = "";
                    d.diffTruncated = false;
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    d.changeRequestId = m.changeRequestId;
                }
                if (m.status != null && Object.hasOwnProperty.call(m, "status")) {
                    d.status = o.enums === String ? $root.farm.v1.BuildStatus[m.status] === undefined ? m.status : $root.farm.v1.BuildStatus[m.status] : m.status;
                }
                if (m.integrationBranch != null && Object.hasOwnProperty.call(m, "integrationBranch")) {
                    d.integrationBranch = m.integrationBranch;
                }
                if (m.commitSha != null && Object.hasOwnProperty.call(m, "commitSha")) {
                    d.commitSha = m.commitSha;
                }
                if (m.conflictingPaths && m.conflictingPaths.length) {
                    d.conflictingPaths = [];
                    for (var j = 0; j < m.conflictingPaths.length; ++j) {
                        d.conflictingPaths[j] = m.conflictingPaths[j];
                    }
                }
                if (m.notes && m.notes.length) {
                    d.notes = [];
                    for (var j = 0; j < m.notes.length; ++j) {
                        d.notes[j] = m.notes[j];
                    }
                }
                if (m.diff != null && Object.hasOwnProperty.call(m, "diff")) {
                    d.diff = m.diff;
                }
                if (m.diffTruncated != null && Object.hasOwnProperty.call(m, "diffTruncated")) {
                    d.diffTruncated = m.diffTruncated;
                }
                return d;
            };

            /**
             * Converts this BuildResult to JSON.
             * @function toJSON
             * @memberof farm.v1.BuildResult
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            BuildResult.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for BuildResult
             * @function getTypeUrl
             * @memberof farm.v1.BuildResult
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            BuildResult.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.BuildResult";
            };

            return BuildResult;
        })();

        /**
         * ControlAction enum.
         * @name farm.v1.ControlAction
         * @enum {number}
         * @property {number} CONTROL_ACTION_UNSPECIFIED=0 CONTROL_ACTION_UNSPECIFIED value
         * @property {number} CANCEL=1 CANCEL value
         * @property {number} APPROVE=2 APPROVE value
         * @property {number} REJECT=3 REJECT value
         */
        v1.ControlAction = (function() {
            var valuesById = {}, values = Object.create(valuesById);
            values[valuesById[0] = "CONTROL_ACTION_UNSPECIFIED"] = 0;
            values[valuesById[1] = "CANCEL"] = 1;
            values[valuesById[2] = "APPROVE"] = 2;
            values[valuesById[3] = "REJECT"] = 3;
            return values;
        })();

        v1.PlanEdit = (function() {

            /**
             * Properties of a PlanEdit.
             * @memberof farm.v1
             * @interface IPlanEdit
             * @property {Array.<string>|null} [removeTasks] PlanEdit removeTasks
             * @property {Object.<string,string>|null} [goals] PlanEdit goals
             * @property {number|null} [parallelism] PlanEdit parallelism
             */

            /**
             * Constructs a new PlanEdit.
             * @memberof farm.v1
             * @classdesc Represents a PlanEdit.
             * @implements IPlanEdit
             * @constructor
             * @param {farm.v1.IPlanEdit=} [p] Properties to set
             */
            function PlanEdit(p) {
                this.removeTasks = [];
                this.goals = {};
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * PlanEdit removeTasks.
             * @member {Array.<string>} removeTasks
             * @memberof farm.v1.PlanEdit
             * @instance
             */
            PlanEdit.prototype.removeTasks = $util.emptyArray;

            /**
             * PlanEdit goals.
             * @member {Object.<string,string>} goals
             * @memberof farm.v1.PlanEdit
             * @instance
             */
            PlanEdit.prototype.goals = $util.emptyObject;

            /**
             * PlanEdit parallelism.
             * @member {number} parallelism
             * @memberof farm.v1.PlanEdit
             * @instance
             */
            PlanEdit.prototype.parallelism = 0;

            /**
             * Creates a new PlanEdit instance using the specified properties.
             * @function create
             * @memberof farm.v1.PlanEdit
             * @static
             * @param {farm.v1.IPlanEdit=} [properties] Properties to set
             * @returns {farm.v1.PlanEdit} PlanEdit instance
             */
            PlanEdit.create = function create(properties) {
                return new PlanEdit(properties);
            };

            /**
             * Encodes the specified PlanEdit message. Does not implicitly {@link farm.v1.PlanEdit.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.PlanEdit
             * @static
             * @param {farm.v1.IPlanEdit} m PlanEdit message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            PlanEdit.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.removeTasks != null && m.removeTasks.length) {
                    for (var i = 0; i < m.removeTasks.length; ++i)
                        w.uint32(10).string(m.removeTasks[i]);
                }
                if (m.goals != null && Object.hasOwnProperty.call(m, "goals")) {
                    for (var ks = Object.keys(m.goals), i = 0; i < ks.length; ++i) {
                        w.uint32(18).fork().uint32(10).string(ks[i]).uint32(18).string(m.goals[ks[i]]).ldelim();
                    }
                }
                if (m.parallelism != null && Object.hasOwnProperty.call(m, "parallelism"))
                    w.uint32(24).uint32(m.parallelism);
                return w;
            };

            /**
             * Encodes the specified PlanEdit message, length delimited. Does not implicitly {@link farm.v1.PlanEdit.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.PlanEdit
             * @static
             * @param {farm.v1.IPlanEdit} message PlanEdit message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            PlanEdit.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a PlanEdit message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.PlanEdit
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.PlanEdit} PlanEdit
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            PlanEdit.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m, k, value;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.PlanEdit();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            if (!(m.removeTasks && m.removeTasks.length))
                                m.removeTasks = [];
                            m.removeTasks.push(r.string());
                            break;
                        }
                    case 2: {
                            if (m.goals === $util.emptyObject)
                                m.goals = {};
                            var c2 = r.uint32() + r.pos;
                            if (c2 > r.len)
                                throw RangeError("index out of range");
                            r.len = c2;
                            k = "";
                            value = "";
                            while (r.pos < c2) {
                                var tag2 = r.uint32();
                                switch (tag2 >>> 3) {
                                case 1:
                                    k = r.string();
                                    break;
                                case 2:
                                    value = r.string();
                                    break;
                                default:
                                    r.skipType(tag2 & 7, n);
                                    break;
                                }
                            }
                            if (r.pos !== c2)
                                throw RangeError("index out of range");
                            r.len = c;
                            if (k === "__proto__")
                                $util.makeProp(m.goals, k);
                            m.goals[k] = value;
                            break;
                        }
                    case 3: {
                            m.parallelism = r.uint32();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a PlanEdit message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.PlanEdit
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.PlanEdit} PlanEdit
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            PlanEdit.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a PlanEdit message.
             * @function verify
             * @memberof farm.v1.PlanEdit
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            PlanEdit.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.removeTasks != null && Object.hasOwnProperty.call(m, "removeTasks")) {
                    if (!Array.isArray(m.removeTasks))
                        return "removeTasks: array expected";
                    for (var i = 0; i < m.removeTasks.length; ++i) {
                        if (!$util.isString(m.removeTasks[i]))
                            return "removeTasks: string[] expected";
                    }
                }
                if (m.goals != null && Object.hasOwnProperty.call(m, "goals")) {
                    if (!$util.isObject(m.goals))
                        return "goals: object expected";
                    var k = Object.keys(m.goals);
                    for (var i = 0; i < k.length; ++i) {
                        if (!$util.isString(m.goals[k[i]]))
                            return "goals: string{k:string} expected";
                    }
                }
                if (m.parallelism != null && Object.hasOwnProperty.call(m, "parallelism")) {
                    if (!$util.isInteger(m.parallelism))
                        return "parallelism: integer expected";
                }
                return null;
            };

            /**
             * Creates a PlanEdit message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.PlanEdit
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.PlanEdit} PlanEdit
             */
            PlanEdit.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.PlanEdit)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.PlanEdit: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.PlanEdit();
                if (d.removeTasks) {
                    if (!Array.isArray(d.removeTasks))
                        throw TypeError(".farm.v1.PlanEdit.removeTasks: array expected");
                    m.removeTasks = [];
                    for (var i = 0; i < d.removeTasks.length; ++i) {
                        m.removeTasks[i] = String(d.removeTasks[i]);
                    }
                }
                if (d.goals) {
                    if (!$util.isObject(d.goals))
                        throw TypeError(".farm.v1.PlanEdit.goals: object expected");
                    m.goals = {};
                    for (var ks = Object.keys(d.goals), i = 0; i < ks.length; ++i) {
                        if (ks[i] === "__proto__")
                            $util.makeProp(m.goals, ks[i]);
                        m.goals[ks[i]] = String(d.goals[ks[i]]);
                    }
                }
                if (d.parallelism != null) {
                    m.parallelism = d.parallelism >>> 0;
                }
                return m;
            };

            /**
             * Creates a plain object from a PlanEdit message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.PlanEdit
             * @static
             * @param {farm.v1.PlanEdit} m PlanEdit
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            PlanEdit.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.removeTasks = [];
                }
                if (o.objects || o.defaults) {
                    d.goals = {};
                }
                if (o.defaults) {
                    d.parallelism = 0;
                }
                if (m.removeTasks && m.removeTasks.length) {
                    d.removeTasks = [];
                    for (var j = 0; j < m.removeTasks.length; ++j) {
                        d.removeTasks[j] = m.removeTasks[j];
                    }
                }
                var ks2;
                if (m.goals && (ks2 = Object.keys(m.goals)).length) {
                    d.goals = {};
                    for (var j = 0; j < ks2.length; ++j) {
                        if (ks2[j] === "__proto__")
                            $util.makeProp(d.goals, ks2[j]);
                        d.goals[ks2[j]] = m.goals[ks2[j]];
                    }
                }
                if (m.parallelism != null && Object.hasOwnProperty.call(m, "parallelism")) {
                    d.parallelism = m.parallelism;
                }
                return d;
            };

            /**
             * Converts this PlanEdit to JSON.
             * @function toJSON
             * @memberof farm.v1.PlanEdit
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            PlanEdit.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for PlanEdit
             * @function getTypeUrl
             * @memberof farm.v1.PlanEdit
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            PlanEdit.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.PlanEdit";
            };

            return PlanEdit;
        })();

        v1.ControlCommand = (function() {

            /**
             * Properties of a ControlCommand.
             * @memberof farm.v1
             * @interface IControlCommand
             * @property {string|null} [changeRequestId] ControlCommand changeRequestId
             * @property {farm.v1.ControlAction|null} [action] ControlCommand action
             * @property {string|null} [reason] ControlCommand reason
             * @property {string|null} [requestedBy] ControlCommand requestedBy
             * @property {farm.v1.IPlanEdit|null} [planEdit] ControlCommand planEdit
             * @property {boolean|null} [decided] ControlCommand decided
             */

            /**
             * Constructs a new ControlCommand.
             * @memberof farm.v1
             * @classdesc Represents a ControlCommand.
             * @implements IControlCommand
             * @constructor
             * @param {farm.v1.IControlCommand=} [p] Properties to set
             */
            function ControlCommand(p) {
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * ControlCommand changeRequestId.
             * @member {string} changeRequestId
             * @memberof farm.v1.ControlCommand
             * @instance
             */
            ControlCommand.prototype.changeRequestId = "";

            /**
             * ControlCommand action.
             * @member {farm.v1.ControlAction} action
             * @memberof farm.v1.ControlCommand
             * @instance
             */
            ControlCommand.prototype.action = 0;

            /**
             * ControlCommand reason.
             * @member {string} reason
             * @memberof farm.v1.ControlCommand
             * @instance
             */
            ControlCommand.prototype.reason = "";

            /**
             * ControlCommand requestedBy.
             * @member {string} requestedBy
             * @memberof farm.v1.ControlCommand
             * @instance
             */
            ControlCommand.prototype.requestedBy = "";

            /**
             * ControlCommand planEdit.
             * @member {farm.v1.IPlanEdit|null|undefined} planEdit
             * @memberof farm.v1.ControlCommand
             * @instance
             */
            ControlCommand.prototype.planEdit = null;

            /**
             * ControlCommand decided.
             * @member {boolean} decided
             * @memberof farm.v1.ControlCommand
             * @instance
             */
            ControlCommand.prototype.decided = false;

            /**
             * Creates a new ControlCommand instance using the specified properties.
             * @function create
             * @memberof farm.v1.ControlCommand
             * @static
             * @param {farm.v1.IControlCommand=} [properties] Properties to set
             * @returns {farm.v1.ControlCommand} ControlCommand instance
             */
            ControlCommand.create = function create(properties) {
                return new ControlCommand(properties);
            };

            /**
             * Encodes the specified ControlCommand message. Does not implicitly {@link farm.v1.ControlCommand.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.ControlCommand
             * @static
             * @param {farm.v1.IControlCommand} m ControlCommand message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ControlCommand.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId"))
                    w.uint32(10).string(m.changeRequestId);
                if (m.action != null && Object.hasOwnProperty.call(m, "action"))
                    w.uint32(16).int32(m.action);
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason"))
                    w.uint32(26).string(m.reason);
                if (m.requestedBy != null && Object.hasOwnProperty.call(m, "requestedBy"))
                    w.uint32(34).string(m.requestedBy);
                if (m.planEdit != null && Object.hasOwnProperty.call(m, "planEdit"))
                    $root.farm.v1.PlanEdit.encode(m.planEdit, w.uint32(42).fork(), q + 1).ldelim();
                if (m.decided != null && Object.hasOwnProperty.call(m, "decided"))
                    w.uint32(48).bool(m.decided);
                return w;
            };

            /**
             * Encodes the specified ControlCommand message, length delimited. Does not implicitly {@link farm.v1.ControlCommand.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.ControlCommand
             * @static
             * @param {farm.v1.IControlCommand} message ControlCommand message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ControlCommand.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a ControlCommand message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.ControlCommand
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.ControlCommand} ControlCommand
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ControlCommand.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.ControlCommand();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.changeRequestId = r.string();
                            break;
                        }
                    case 2: {
                            m.action = r.int32();
                            break;
                        }
                    case 3: {
                            m.reason = r.string();
                            break;
                        }
                    case 4: {
                            m.requestedBy = r.string();
                            break;
                        }
                    case 5: {
                            m.planEdit = $root.farm.v1.PlanEdit.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    case 6: {
                            m.decided = r.bool();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a ControlCommand message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.ControlCommand
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.ControlCommand} ControlCommand
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ControlCommand.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a ControlCommand message.
             * @function verify
             * @memberof farm.v1.ControlCommand
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ControlCommand.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    if (!$util.isString(m.changeRequestId))
                        return "changeRequestId: string expected";
                }
                if (m.action != null && Object.hasOwnProperty.call(m, "action")) {
                    switch (m.action) {
                    default:
                        return "action: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                        break;
                    }
                }
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason")) {
                    if (!$util.isString(m.reason))
                        return "reason: string expected";
                }
                if (m.requestedBy != null && Object.hasOwnProperty.call(m, "requestedBy")) {
                    if (!$util.isString(m.requestedBy))
                        return "requestedBy: string expected";
                }
                if (m.planEdit != null && Object.hasOwnProperty.call(m, "planEdit")) {
                    {
                        var e = $root.farm.v1.PlanEdit.verify(m.planEdit, n + 1);
                        if (e)
                            return "planEdit." + e;
                    }
                }
                if (m.decided != null && Object.hasOwnProperty.call(m, "decided")) {
                    if (typeof m.decided !== "boolean")
                        return "decided: boolean expected";
                }
                return null;
            };

            /**
             * Creates a ControlCommand message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.ControlCommand
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.ControlCommand} ControlCommand
             */
            ControlCommand.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.ControlCommand)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.ControlCommand: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.ControlCommand();
                if (d.changeRequestId != null) {
                    m.changeRequestId = String(d.changeRequestId);
                }
                switch (d.action) {
                default:
                    if (typeof d.action === "number") {
                        m.action = d.action;
                        break;
                    }
                    break;
                case "CONTROL_ACTION_UNSPECIFIED":
                case 0:
                    m.action = 0;
                    break;
                case "CANCEL":
                case 1:
                    m.action = 1;
                    break;
                case "APPROVE":
                case 2:
                    m.action = 2;
                    break;
                case "REJECT":
                case 3:
                    m.action = 3;
                    break;
                }
                if (d.reason != null) {
                    m.reason = String(d.reason);
                }
                if (d.requestedBy != null) {
                    m.requestedBy = String(d.requestedBy);
                }
                if (d.planEdit != null) {
                    if (!$util.isObject(d.planEdit))
                        throw TypeError(".farm.v1.ControlCommand.planEdit: object expected");
                    m.planEdit = $root.farm.v1.PlanEdit.fromObject(d.planEdit, n + 1);
                }
                if (d.decided != null) {
                    m.decided = Boolean(d.decided);
                }
                return m;
            };

            /**
             * Creates a plain object from a ControlCommand message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.ControlCommand
             * @static
             * @param {farm.v1.ControlCommand} m ControlCommand
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ControlCommand.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.defaults) {
                    d.changeRequestId = "";
                    d.action = o.enums === String ? "CONTROL_ACTION_UNSPECIFIED" : 0;
                    d.reason = "";
                    d.requestedBy = "";
                    d.planEdit = null;
                    d.decided = false;
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    d.changeRequestId = m.changeRequestId;
                }
                if (m.action != null && Object.hasOwnProperty.call(m, "action")) {
                    d.action = o.enums === String ? $root.farm.v1.ControlAction[m.action] === undefined ? m.action : $root.farm.v1.ControlAction[m.action] : m.action;
                }
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason")) {
                    d.reason = m.reason;
                }
                if (m.requestedBy != null && Object.hasOwnProperty.call(m, "requestedBy")) {
                    d.requestedBy = m.requestedBy;
                }
                if (m.planEdit != null && Object.hasOwnProperty.call(m, "planEdit")) {
                    d.planEdit = $root.farm.v1.PlanEdit.toObject(m.planEdit, o, q + 1);
                }
                if (m.decided != null && Object.hasOwnProperty.call(m, "decided")) {
                    d.decided = m.decided;
                }
                return d;
            };

            /**
             * Converts this ControlCommand to JSON.
             * @function toJSON
             * @memberof farm.v1.ControlCommand
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ControlCommand.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for ControlCommand
             * @function getTypeUrl
             * @memberof farm.v1.ControlCommand
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            ControlCommand.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.ControlCommand";
            };

            return ControlCommand;
        })();

        v1.CodingTask = (function() {

            /**
             * Properties of a CodingTask.
             * @memberof farm.v1
             * @interface ICodingTask
             * @property {string|null} [id] CodingTask id
             * @property {string|null} [goal] CodingTask goal
             * @property {farm.v1.TaskKind|null} [kind] CodingTask kind
             * @property {string|null} [path] CodingTask path
             * @property {Array.<string>|null} [blobIds] CodingTask blobIds
             * @property {string|null} [changeRequestId] CodingTask changeRequestId
             * @property {farm.v1.IRepoRef|null} [repo] CodingTask repo
             * @property {Array.<string>|null} [dependsOn] CodingTask dependsOn
             * @property {Array.<string>|null} [symbols] CodingTask symbols
             * @property {string|null} [checkCommand] CodingTask checkCommand
             * @property {number|null} [maxRetries] CodingTask maxRetries
             * @property {Array.<string>|null} [priorNotes] CodingTask priorNotes
             * @property {number|null} [dispatch] CodingTask dispatch
             * @property {number|null} [contextBudgetTokens] CodingTask contextBudgetTokens
             * @property {farm.v1.AgentStrategy|null} [strategy] CodingTask strategy
             * @property {Array.<farm.v1.ILesson>|null} [lessons] CodingTask lessons
             * @property {Array.<farm.v1.ILeaseRef>|null} [reservedLeases] CodingTask reservedLeases
             * @property {number|null} [estimatedChangedLines] CodingTask estimatedChangedLines
             */

            /**
             * Constructs a new CodingTask.
             * @memberof farm.v1
             * @classdesc Represents a CodingTask.
             * @implements ICodingTask
             * @constructor
             * @param {farm.v1.ICodingTask=} [p] Properties to set
             */
            function CodingTask(p) {
                this.blobIds = [];
                this.dependsOn = [];
                this.symbols = [];
                this.priorNotes = [];
                this.lessons = [];
                this.reservedLeases = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * CodingTask id.
             * @member {string} id
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.id = "";

            /**
             * CodingTask goal.
             * @member {string} goal
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.goal = "";

            /**
             * CodingTask kind.
             * @member {farm.v1.TaskKind} kind
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.kind = 0;

            /**
             * CodingTask path.
             * @member {string} path
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.path = "";

            /**
             * CodingTask blobIds.
             * @member {Array.<string>} blobIds
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.blobIds = $util.emptyArray;

            /**
             * CodingTask changeRequestId.
             * @member {string} changeRequestId
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.changeRequestId = "";

            /**
             * CodingTask repo.
             * @member {farm.v1.IRepoRef|null|undefined} repo
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.repo = null;

            /**
             * CodingTask dependsOn.
             * @member {Array.<string>} dependsOn
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.dependsOn = $util.emptyArray;

            /**
             * CodingTask symbols.
             * @member {Array.<string>} symbols
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.symbols = $util.emptyArray;

            /**
             * CodingTask checkCommand.
             * @member {string} checkCommand
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.checkCommand = "";

            /**
             * CodingTask maxRetries.
             * @member {number} maxRetries
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.maxRetries = 0;

            /**
             * CodingTask priorNotes.
             * @member {Array.<string>} priorNotes
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.priorNotes = $util.emptyArray;

            /**
             * CodingTask dispatch.
             * @member {number} dispatch
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.dispatch = 0;

            /**
             * CodingTask contextBudgetTokens.
             * @member {number} contextBudgetTokens
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.contextBudgetTokens = 0;

            /**
             * CodingTask strategy.
             * @member {farm.v1.AgentStrategy} strategy
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.strategy = 0;

            /**
             * CodingTask lessons.
             * @member {Array.<farm.v1.ILesson>} lessons
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.lessons = $util.emptyArray;

            /**
             * CodingTask reservedLeases.
             * @member {Array.<farm.v1.ILeaseRef>} reservedLeases
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.reservedLeases = $util.emptyArray;

            /**
             * CodingTask estimatedChangedLines.
             * @member {number} estimatedChangedLines
             * @memberof farm.v1.CodingTask
             * @instance
             */
            CodingTask.prototype.estimatedChangedLines = 0;

            /**
             * Creates a new CodingTask instance using the specified properties.
             * @function create
             * @memberof farm.v1.CodingTask
             * @static
             * @param {farm.v1.ICodingTask=} [properties] Properties to set
             * @returns {farm.v1.CodingTask} CodingTask instance
             */
            CodingTask.create = function create(properties) {
                return new CodingTask(properties);
            };

            /**
             * Encodes the specified CodingTask message. Does not implicitly {@link farm.v1.CodingTask.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.CodingTask
             * @static
             * @param {farm.v1.ICodingTask} m CodingTask message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            CodingTask.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.id != null && Object.hasOwnProperty.call(m, "id"))
                    w.uint32(10).string(m.id);
                if (m.goal != null && Object.hasOwnProperty.call(m, "goal"))
                    w.uint32(18).string(m.goal);
                if (m.kind != null && Object.hasOwnProperty.call(m, "kind"))
                    w.uint32(24).int32(m.kind);
                if (m.path != null && Object.hasOwnProperty.call(m, "path"))
                    w.uint32(34).string(m.path);
                if (m.blobIds != null && m.blobIds.length) {
                    for (var i = 0; i < m.blobIds.length; ++i)
                        w.uint32(42).string(m.blobIds[i]);
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId"))
                    w.uint32(58).string(m.changeRequestId);
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo"))
                    $root.farm.v1.RepoRef.encode(m.repo, w.uint32(66).fork(), q + 1).ldelim();
                if (m.dependsOn != null && m.dependsOn.length) {
                    for (var i = 0; i < m.dependsOn.length; ++i)
                        w.uint32(74).string(m.dependsOn[i]);
                }
                if (m.symbols != null && m.symbols.length) {
                    for (var i = 0; i < m.symbols.length; ++i)
                        w.uint32(82).string(m.symbols[i]);
                }
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand"))
                    w.uint32(90).string(m.checkCommand);
                if (m.maxRetries != null && Object.hasOwnProperty.call(m, "maxRetries"))
                    w.uint32(96).uint32(m.maxRetries);
                if (m.priorNotes != null && m.priorNotes.length) {
                    for (var i = 0; i < m.priorNotes.length; ++i)
                        w.uint32(106).string(m.priorNotes[i]);
                }
                if (m.dispatch != null && Object.hasOwnProperty.call(m, "dispatch"))
                    w.uint32(112).uint32(m.dispatch);
                if (m.contextBudgetTokens != null && Object.hasOwnProperty.call(m, "contextBudgetTokens"))
                    w.uint32(120).uint32(m.contextBudgetTokens);
                if (m.strategy != null && Object.hasOwnProperty.call(m, "strategy"))
                    w.uint32(128).int32(m.strategy);
                if (m.lessons != null && m.lessons.length) {
                    for (var i = 0; i < m.lessons.length; ++i)
                        $root.farm.v1.Lesson.encode(m.lessons[i], w.uint32(138).fork(), q + 1).ldelim();
                }
                if (m.reservedLeases != null && m.reservedLeases.length) {
                    for (var i = 0; i < m.reservedLeases.length; ++i)
                        $root.farm.v1.LeaseRef.encode(m.reservedLeases[i], w.uint32(146).fork(), q + 1).ldelim();
                }
                if (m.estimatedChangedLines != null && Object.hasOwnProperty.call(m, "estimatedChangedLines"))
                    w.uint32(152).uint32(m.estimatedChangedLines);
                return w;
            };

            /**
             * Encodes the specified CodingTask message, length delimited. Does not implicitly {@link farm.v1.CodingTask.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.CodingTask
             * @static
             * @param {farm.v1.ICodingTask} message CodingTask message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            CodingTask.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a CodingTask message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.CodingTask
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.CodingTask} CodingTask
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            CodingTask.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.CodingTask();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.id = r.string();
                            break;
                        }
                    case 2: {
                            m.goal = r.string();
                            break;
                        }
                    case 3: {
                            m.kind = r.int32();
                            break;
                        }
                    case 4: {
                            m.path = r.string();
                            break;
                        }
                    case 5: {
                            if (!(m.blobIds && m.blobIds.length))
                                m.blobIds = [];
                            m.blobIds.push(r.string());
                            break;
                        }
                    case 7: {
                            m.changeRequestId = r.string();
                            break;
                        }
                    case 8: {
                            m.repo = $root.farm.v1.RepoRef.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    case 9: {
                            if (!(m.dependsOn && m.dependsOn.length))
                                m.dependsOn = [];
                            m.dependsOn.push(r.string());
                            break;
                        }
                    case 10: {
                            if (!(m.symbols && m.symbols.length))
                                m.symbols = [];
                            m.symbols.push(r.string());
                            break;
                        }
                    case 11: {
                            m.checkCommand = r.string();
                            break;
                        }
                    case 12: {
                            m.maxRetries = r.uint32();
                            break;
                        }
                    case 13: {
                            if (!(m.priorNotes && m.priorNotes.length))
                                m.priorNotes = [];
                            m.priorNotes.push(r.string());
                            break;
                        }
                    case 14: {
                            m.dispatch = r.uint32();
                            break;
                        }
                    case 15: {
                            m.contextBudgetTokens = r.uint32();
                            break;
                        }
                    case 16: {
                            m.strategy = r.int32();
                            break;
                        }
                    case 17: {
                            if (!(m.lessons && m.lessons.length))
                                m.lessons = [];
                            m.lessons.push($root.farm.v1.Lesson.decode(r, r.uint32(), undefined, n + 1));
                            break;
                        }
                    case 18: {
                            if (!(m.reservedLeases && m.reservedLeases.length))
                                m.reservedLeases = [];
                            m.reservedLeases.push($root.farm.v1.LeaseRef.decode(r, r.uint32(), undefined, n + 1));
                            break;
                        }
                    case 19: {
                            m.estimatedChangedLines = r.uint32();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a CodingTask message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.CodingTask
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.CodingTask} CodingTask
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            CodingTask.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a CodingTask message.
             * @function verify
             * @memberof farm.v1.CodingTask
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            CodingTask.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.id != null && Object.hasOwnProperty.call(m, "id")) {
                    if (!$util.isString(m.id))
                        return "id: string expected";
                }
                if (m.goal != null && Object.hasOwnProperty.call(m, "goal")) {
                    if (!$util.isString(m.goal))
                        return "goal: string expected";
                }
                if (m.kind != null && Object.hasOwnProperty.call(m, "kind")) {
                    switch (m.kind) {
                    default:
                        return "kind: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                    case 4:
                    case 5:
                        break;
                    }
                }
                if (m.path != null && Object.hasOwnProperty.call(m, "path")) {
                    if (!$util.isString(m.path))
                        return "path: string expected";
                }
                if (m.blobIds != null && Object.hasOwnProperty.call(m, "blobIds")) {
                    if (!Array.isArray(m.blobIds))
                        return "blobIds: array expected";
                    for (var i = 0; i < m.blobIds.length; ++i) {
                        if (!$util.isString(m.blobIds[i]))
                            return "blobIds: string[] expected";
                    }
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    if (!$util.isString(m.changeRequestId))
                        return "changeRequestId: string expected";
                }
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo")) {
                    {
                        var e = $root.farm.v1.RepoRef.verify(m.repo, n + 1);
                        if (e)
                            return "repo." + e;
                    }
                }
                if (m.dependsOn != null && Object.hasOwnProperty.call(m, "dependsOn")) {
                    if (!Array.isArray(m.dependsOn))
                        return "dependsOn: array expected";
                    for (var i = 0; i < m.dependsOn.length; ++i) {
                        if (!$util.isString(m.dependsOn[i]))
                            return "dependsOn: string[] expected";
                    }
                }
                if (m.symbols != null && Object.hasOwnProperty.call(m, "symbols")) {
                    if (!Array.isArray(m.symbols))
                        return "symbols: array expected";
                    for (var i = 0; i < m.symbols.length; ++i) {
                        if (!$util.isString(m.symbols[i]))
                            return "symbols: string[] expected";
                    }
                }
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand")) {
                    if (!$util.isString(m.checkCommand))
                        return "checkCommand: string expected";
                }
                if (m.maxRetries != null && Object.hasOwnProperty.call(m, "maxRetries")) {
                    if (!$util.isInteger(m.maxRetries))
                        return "maxRetries: integer expected";
                }
                if (m.priorNotes != null && Object.hasOwnProperty.call(m, "priorNotes")) {
                    if (!Array.isArray(m.priorNotes))
                        return "priorNotes: array expected";
                    for (var i = 0; i < m.priorNotes.length; ++i) {
                        if (!$util.isString(m.priorNotes[i]))
                            return "priorNotes: string[] expected";
                    }
                }
                if (m.dispatch != null && Object.hasOwnProperty.call(m, "dispatch")) {
                    if (!$util.isInteger(m.dispatch))
                        return "dispatch: integer expected";
                }
                if (m.contextBudgetTokens != null && Object.hasOwnProperty.call(m, "contextBudgetTokens")) {
                    if (!$util.isInteger(m.contextBudgetTokens))
                        return "contextBudgetTokens: integer expected";
                }
                if (m.strategy != null && Object.hasOwnProperty.call(m, "strategy")) {
                    switch (m.strategy) {
                    default:
                        return "strategy: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                        break;
                    }
                }
                if (m.lessons != null && Object.hasOwnProperty.call(m, "lessons")) {
                    if (!Array.isArray(m.lessons))
                        return "lessons: array expected";
                    for (var i = 0; i < m.lessons.length; ++i) {
                        {
                            var e = $root.farm.v1.Lesson.verify(m.lessons[i], n + 1);
                            if (e)
                                return "lessons." + e;
                        }
                    }
                }
                if (m.reservedLeases != null && Object.hasOwnProperty.call(m, "reservedLeases")) {
                    if (!Array.isArray(m.reservedLeases))
                        return "reservedLeases: array expected";
                    for (var i = 0; i < m.reservedLeases.length; ++i) {
                        {
                            var e = $root.farm.v1.LeaseRef.verify(m.reservedLeases[i], n + 1);
                            if (e)
                                return "reservedLeases." + e;
                        }
                    }
                }
                if (m.estimatedChangedLines != null && Object.hasOwnProperty.call(m, "estimatedChangedLines")) {
                    if (!$util.isInteger(m.estimatedChangedLines))
                        return "estimatedChangedLines: integer expected";
                }
                return null;
            };

            /**
             * Creates a CodingTask message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.CodingTask
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.CodingTask} CodingTask
             */
            CodingTask.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.CodingTask)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.CodingTask: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.CodingTask();
                if (d.id != null) {
                    m.id = String(d.id);
                }
                if (d.goal != null) {
                    m.goal = String(d.goal);
                }
                switch (d.kind) {
                default:
                    if (typeof d.kind === "number") {
                        m.kind = d.kind;
                        break;
                    }
                    break;
                case "TASK_KIND_UNSPECIFIED":
                case 0:
                    m.kind = 0;
                    break;
                case "FEATURE":
                case 1:
                    m.kind = 1;
                    break;
                case "FIX":
                case 2:
                    m.kind = 2;
                    break;
                case "REFACTOR":
                case 3:
                    m.kind = 3;
                    break;
                case "TEST":
                case 4:
                    m.kind = 4;
                    break;
                case "DOCS":
                case 5:
                    m.kind = 5;
                    break;
                }
                if (d.path != null) {
                    m.path = String(d.path);
                }
                if (d.blobIds) {
                    if (!Array.isArray(d.blobIds))
                        throw TypeError(".farm.v1.CodingTask.blobIds: array expected");
                    m.blobIds = [];
                    for (var i = 0; i < d.blobIds.length; ++i) {
                        m.blobIds[i] = String(d.blobIds[i]);
                    }
                }
                if (d.changeRequestId != null) {
                    m.changeRequestId = String(d.changeRequestId);
                }
                if (d.repo != null) {
                    if (!$util.isObject(d.repo))
                        throw TypeError(".farm.v1.CodingTask.repo: object expected");
                    m.repo = $root.farm.v1.RepoRef.fromObject(d.repo, n + 1);
                }
                if (d.dependsOn) {
                    if (!Array.isArray(d.dependsOn))
                        throw TypeError(".farm.v1.CodingTask.dependsOn: array expected");
                    m.dependsOn = [];
                    for (var i = 0; i < d.dependsOn.length; ++i) {
                        m.dependsOn[i] = String(d.dependsOn[i]);
                    }
                }
                if (d.symbols) {
                    if (!Array.isArray(d.symbols))
                        throw TypeError(".farm.v1.CodingTask.symbols: array expected");
                    m.symbols = [];
                    for (var i = 0; i < d.symbols.length; ++i) {
                        m.symbols[i] = String(d.symbols[i]);
                    }
                }
                if (d.checkCommand != null) {
                    m.checkCommand = String(d.checkCommand);
                }
                if (d.maxRetries != null) {
                    m.maxRetries = d.maxRetries >>> 0;
                }
                if (d.priorNotes) {
                    if (!Array.isArray(d.priorNotes))
                        throw TypeError(".farm.v1.CodingTask.priorNotes: array expected");
                    m.priorNotes = [];
                    for (var i = 0; i < d.priorNotes.length; ++i) {
                        m.priorNotes[i] = String(d.priorNotes[i]);
                    }
                }
                if (d.dispatch != null) {
                    m.dispatch = d.dispatch >>> 0;
                }
                if (d.contextBudgetTokens != null) {
                    m.contextBudgetTokens = d.contextBudgetTokens >>> 0;
                }
                switch (d.strategy) {
                default:
                    if (typeof d.strategy === "number") {
                        m.strategy = d.strategy;
                        break;
                    }
                    break;
                case "AGENT_STRATEGY_UNSPECIFIED":
                case 0:
                    m.strategy = 0;
                    break;
                case "TOOLS":
                case 1:
                    m.strategy = 1;
                    break;
                case "DIFF":
                case 2:
                    m.strategy = 2;
                    break;
                }
                if (d.lessons) {
                    if (!Array.isArray(d.lessons))
                        throw TypeError(".farm.v1.CodingTask.lessons: array expected");
                    m.lessons = [];
                    for (var i = 0; i < d.lessons.length; ++i) {
                        if (!$util.isObject(d.lessons[i]))
                            throw TypeError(".farm.v1.CodingTask.lessons: object expected");
                        m.lessons[i] = $root.farm.v1.Lesson.fromObject(d.lessons[i], n + 1);
                    }
                }
                if (d.reservedLeases) {
                    if (!Array.isArray(d.reservedLeases))
                        throw TypeError(".farm.v1.CodingTask.reservedLeases: array expected");
                    m.reservedLeases = [];
                    for (var i = 0; i < d.reservedLeases.length; ++i) {
                        if (!$util.isObject(d.reservedLeases[i]))
                            throw TypeError(".farm.v1.CodingTask.reservedLeases: object expected");
                        m.reservedLeases[i] = $root.farm.v1.LeaseRef.fromObject(d.reservedLeases[i], n + 1);
                    }
                }
                if (d.estimatedChangedLines != null) {
                    m.estimatedChangedLines = d.estimatedChangedLines >>> 0;
                }
                return m;
            };

            /**
             * Creates a plain object from a CodingTask message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.CodingTask
             * @static
             * @param {farm.v1.CodingTask} m CodingTask
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            CodingTask.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.blobIds = [];
                    d.dependsOn = [];
                    d.symbols = [];
                    d.priorNotes = [];
                    d.lessons = [];
                    d.reservedLeases = [];
                }
                if (o.defaults) {
                    d.id = "";
                    d.goal = "";
                    d.kind = o.enums === String ? "TASK_KIND_UNSPECIFIED" : 0;
                    d.path = "";
                    d.changeRequestId = "";
                    d.repo = null;
                    d.checkCommand = "";
                    d.maxRetries = 0;
                    d.dispatch = 0;
                    d.contextBudgetTokens = 0;
                    d.strategy = o.enums === String ? "AGENT_STRATEGY_UNSPECIFIED" : 0;
                    d.estimatedChangedLines = 0;
                }
                if (m.id != null && Object.hasOwnProperty.call(m, "id")) {
                    d.id = m.id;
                }
                if (m.goal != null && Object.hasOwnProperty.call(m, "goal")) {
                    d.goal = m.goal;
                }
                if (m.kind != null && Object.hasOwnProperty.call(m, "kind")) {
                    d.kind = o.enums === String ? $root.farm.v1.TaskKind[m.kind] === undefined ? m.kind : $root.farm.v1.TaskKind[m.kind] : m.kind;
                }
                if (m.path != null && Object.hasOwnProperty.call(m, "path")) {
                    d.path = m.path;
                }
                if (m.blobIds && m.blobIds.length) {
                    d.blobIds = [];
                    for (var j = 0; j < m.blobIds.length; ++j) {
                        d.blobIds[j] = m.blobIds[j];
                    }
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    d.changeRequestId = m.changeRequestId;
                }
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo")) {
                    d.repo = $root.farm.v1.RepoRef.toObject(m.repo, o, q + 1);
                }
                if (m.dependsOn && m.dependsOn.length) {
                    d.dependsOn = [];
                    for (var j = 0; j < m.dependsOn.length; ++j) {
                        d.dependsOn[j] = m.dependsOn[j];
                    }
                }
                if (m.symbols && m.symbols.length) {
                    d.symbols = [];
                    for (var j = 0; j < m.symbols.length; ++j) {
                        d.symbols[j] = m.symbols[j];
                    }
                }
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand")) {
                    d.checkCommand = m.checkCommand;
                }
                if (m.maxRetries != null && Object.hasOwnProperty.call(m, "maxRetries")) {
                    d.maxRetries = m.maxRetries;
                }
                if (m.priorNotes && m.priorNotes.length) {
                    d.priorNotes = [];
                    for (var j = 0; j < m.priorNotes.length; ++j) {
                        d.priorNotes[j] = m.priorNotes[j];
                    }
                }
                if (m.dispatch != null && Object.hasOwnProperty.call(m, "dispatch")) {
                    d.dispatch = m.dispatch;
                }
                if (m.contextBudgetTokens != null && Object.hasOwnProperty.call(m, "contextBudgetTokens")) {
                    d.contextBudgetTokens = m.contextBudgetTokens;
                }
                if (m.strategy != null && Object.hasOwnProperty.call(m, "strategy")) {
                    d.strategy = o.enums === String ? $root.farm.v1.AgentStrategy[m.strategy] === undefined ? m.strategy : $root.farm.v1.AgentStrategy[m.strategy] : m.strategy;
                }
                if (m.lessons && m.lessons.length) {
                    d.lessons = [];
                    for (var j = 0; j < m.lessons.length; ++j) {
                        d.lessons[j] = $root.farm.v1.Lesson.toObject(m.lessons[j], o, q + 1);
                    }
                }
                if (m.reservedLeases && m.reservedLeases.length) {
                    d.reservedLeases = [];
                    for (var j = 0; j < m.reservedLeases.length; ++j) {
                        d.reservedLeases[j] = $root.farm.v1.LeaseRef.toObject(m.reservedLeases[j], o, q + 1);
                    }
                }
                if (m.estimatedChangedLines != null && Object.hasOwnProperty.call(m, "estimatedChangedLines")) {
                    d.estimatedChangedLines = m.estimatedChangedLines;
                }
                return d;
            };

            /**
             * Converts this CodingTask to JSON.
             * @function toJSON
             * @memberof farm.v1.CodingTask
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            CodingTask.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for CodingTask
             * @function getTypeUrl
             * @memberof farm.v1.CodingTask
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            CodingTask.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.CodingTask";
            };

            return CodingTask;
        })();

        v1.LeaseRef = (function() {

            /**
             * Properties of a LeaseRef.
             * @memberof farm.v1
             * @interface ILeaseRef
             * @property {string|null} [id] LeaseRef id
             * @property {string|null} [fencingToken] LeaseRef fencingToken
             * @property {string|null} [symbol] LeaseRef symbol
             */

            /**
             * Constructs a new LeaseRef.
             * @memberof farm.v1
             * @classdesc Represents a LeaseRef.
             * @implements ILeaseRef
             * @constructor
             * @param {farm.v1.ILeaseRef=} [p] Properties to set
             */
            function LeaseRef(p) {
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * LeaseRef id.
             * @member {string} id
             * @memberof farm.v1.LeaseRef
             * @instance
             */
            LeaseRef.prototype.id = "";

            /**
             * LeaseRef fencingToken.
             * @member {string} fencingToken
             * @memberof farm.v1.LeaseRef
             * @instance
             */
            LeaseRef.prototype.fencingToken = "";

            /**
             * LeaseRef symbol.
             * @member {string} symbol
             * @memberof farm.v1.LeaseRef
             * @instance
             */
            LeaseRef.prototype.symbol = "";

            /**
             * Creates a new LeaseRef instance using the specified properties.
             * @function create
             * @memberof farm.v1.LeaseRef
             * @static
             * @param {farm.v1.ILeaseRef=} [properties] Properties to set
             * @returns {farm.v1.LeaseRef} LeaseRef instance
             */
            LeaseRef.create = function create(properties) {
                return new LeaseRef(properties);
            };

            /**
             * Encodes the specified LeaseRef message. Does not implicitly {@link farm.v1.LeaseRef.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.LeaseRef
             * @static
             * @param {farm.v1.ILeaseRef} m LeaseRef message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            LeaseRef.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.id != null && Object.hasOwnProperty.call(m, "id"))
                    w.uint32(10).string(m.id);
                if (m.fencingToken != null && Object.hasOwnProperty.call(m, "fencingToken"))
                    w.uint32(18).string(m.fencingToken);
                if (m.symbol != null && Object.hasOwnProperty.call(m, "symbol"))
                    w.uint32(26).string(m.symbol);
                return w;
            };

            /**
             * Encodes the specified LeaseRef message, length delimited. Does not implicitly {@link farm.v1.LeaseRef.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.LeaseRef
             * @static
             * @param {farm.v1.ILeaseRef} message LeaseRef message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            LeaseRef.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a LeaseRef message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.LeaseRef
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.LeaseRef} LeaseRef
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            LeaseRef.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.LeaseRef();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.id = r.string();
                            break;
                        }
                    case 2: {
                            m.fencingToken = r.string();
                            break;
                        }
                    case 3: {
                            m.symbol = r.string();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a LeaseRef message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.LeaseRef
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.LeaseRef} LeaseRef
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            LeaseRef.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a LeaseRef message.
             * @function verify
             * @memberof farm.v1.LeaseRef
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            LeaseRef.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.id != null && Object.hasOwnProperty.call(m, "id")) {
                    if (!$util.isString(m.id))
                        return "id: string expected";
                }
                if (m.fencingToken != null && Object.hasOwnProperty.call(m, "fencingToken")) {
                    if (!$util.isString(m.fencingToken))
                        return "fencingToken: string expected";
                }
                if (m.symbol != null && Object.hasOwnProperty.call(m, "symbol")) {
                    if (!$util.isString(m.symbol))
                        return "symbol: string expected";
                }
                return null;
            };

            /**
             * Creates a LeaseRef message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.LeaseRef
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.LeaseRef} LeaseRef
             */
            LeaseRef.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.LeaseRef)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.LeaseRef: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.LeaseRef();
                if (d.id != null) {
                    m.id = String(d.id);
                }
                if (d.fencingToken != null) {
                    m.fencingToken = String(d.fencingToken);
                }
                if (d.symbol != null) {
                    m.symbol = String(d.symbol);
                }
                return m;
            };

            /**
             * Creates a plain object from a LeaseRef message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.LeaseRef
             * @static
             * @param {farm.v1.LeaseRef} m LeaseRef
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            LeaseRef.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.defaults) {
                    d.id = "";
                    d.fencingToken = "";
                    d.symbol = "";
                }
                if (m.id != null && Object.hasOwnProperty.call(m, "id")) {
                    d.id = m.id;
                }
                if (m.fencingToken != null && Object.hasOwnProperty.call(m, "fencingToken")) {
                    d.fencingToken = m.fencingToken;
                }
                if (m.symbol != null && Object.hasOwnProperty.call(m, "symbol")) {
                    d.symbol = m.symbol;
                }
                return d;
            };

            /**
             * Converts this LeaseRef to JSON.
             * @function toJSON
             * @memberof farm.v1.LeaseRef
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            LeaseRef.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for LeaseRef
             * @function getTypeUrl
             * @memberof farm.v1.LeaseRef
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            LeaseRef.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.LeaseRef";
            };

            return LeaseRef;
        })();

        /**
         * AgentStrategy enum.
         * @name farm.v1.AgentStrategy
         * @enum {number}
         * @property {number} AGENT_STRATEGY_UNSPECIFIED=0 AGENT_STRATEGY_UNSPECIFIED value
         * @property {number} TOOLS=1 TOOLS value
         * @property {number} DIFF=2 DIFF value
         */
        v1.AgentStrategy = (function() {
            var valuesById = {}, values = Object.create(valuesById);
            values[valuesById[0] = "AGENT_STRATEGY_UNSPECIFIED"] = 0;
            values[valuesById[1] = "TOOLS"] = 1;
            values[valuesById[2] = "DIFF"] = 2;
            return values;
        })();

        v1.Lesson = (function() {

            /**
             * Properties of a Lesson.
             * @memberof farm.v1
             * @interface ILesson
             * @property {string|null} [repoUrl] Lesson repoUrl
             * @property {string|null} [goal] Lesson goal
             * @property {Array.<string>|null} [files] Lesson files
             * @property {string|null} [firstFailure] Lesson firstFailure
             * @property {string|null} [fix] Lesson fix
             * @property {string|null} [taskId] Lesson taskId
             */

            /**
             * Constructs a new Lesson.
             * @memberof farm.v1
             * @classdesc Represents a Lesson.
             * @implements ILesson
             * @constructor
             * @param {farm.v1.ILesson=} [p] Properties to set
             */
            function Lesson(p) {
                this.files = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * Lesson repoUrl.
             * @member {string} repoUrl
             * @memberof farm.v1.Lesson
             * @instance
             */
            Lesson.prototype.repoUrl = "";

            /**
             * Lesson goal.
             * @member {string} goal
             * @memberof farm.v1.Lesson
             * @instance
             */
            Lesson.prototype.goal = "";

            /**
             * Lesson files.
             * @member {Array.<string>} files
             * @memberof farm.v1.Lesson
             * @instance
             */
            Lesson.prototype.files = $util.emptyArray;

            /**
             * Lesson firstFailure.
             * @member {string} firstFailure
             * @memberof farm.v1.Lesson
             * @instance
             */
            Lesson.prototype.firstFailure = "";

            /**
             * Lesson fix.
             * @member {string} fix
             * @memberof farm.v1.Lesson
             * @instance
             */
            Lesson.prototype.fix = "";

            /**
             * Lesson taskId.
             * @member {string} taskId
             * @memberof farm.v1.Lesson
             * @instance
             */
            Lesson.prototype.taskId = "";

            /**
             * Creates a new Lesson instance using the specified properties.
             * @function create
             * @memberof farm.v1.Lesson
             * @static
             * @param {farm.v1.ILesson=} [properties] Properties to set
             * @returns {farm.v1.Lesson} Lesson instance
             */
            Lesson.create = function create(properties) {
                return new Lesson(properties);
            };

            /**
             * Encodes the specified Lesson message. Does not implicitly {@link farm.v1.Lesson.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.Lesson
             * @static
             * @param {farm.v1.ILesson} m Lesson message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Lesson.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.repoUrl != null && Object.hasOwnProperty.call(m, "repoUrl"))
                    w.uint32(10).string(m.repoUrl);
                if (m.goal != null && Object.hasOwnProperty.call(m, "goal"))
                    w.uint32(18).string(m.goal);
                if (m.files != null && m.files.length) {
                    for (var i = 0; i < m.files.length; ++i)
                        w.uint32(26).string(m.files[i]);
                }
                if (m.firstFailure != null && Object.hasOwnProperty.call(m, "firstFailure"))
                    w.uint32(34).string(m.firstFailure);
                if (m.fix != null && Object.hasOwnProperty.call(m, "fix"))
                    w.uint32(42).string(m.fix);
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId"))
                    w.uint32(50).string(m.taskId);
                return w;
            };

            /**
             * Encodes the specified Lesson message, length delimited. Does not implicitly {@link farm.v1.Lesson.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.Lesson
             * @static
             * @param {farm.v1.ILesson} message Lesson message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Lesson.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a Lesson message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.Lesson
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.Lesson} Lesson
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Lesson.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.Lesson();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.repoUrl = r.string();
                            break;
                        }
                    case 2: {
                            m.goal = r.string();
                            break;
                        }
                    case 3: {
                            if (!(m.files && m.files.length))
                                m.files = [];
                            m.files.push(r.string());
                            break;
                        }
                    case 4: {
                            m.firstFailure = r.string();
                            break;
                        }
                    case 5: {
                            m.fix = r.string();
                            break;
                        }
                    case 6: {
                            m.taskId = r.string();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a Lesson message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.Lesson
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.Lesson} Lesson
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Lesson.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a Lesson message.
             * @function verify
             * @memberof farm.v1.Lesson
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Lesson.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.repoUrl != null && Object.hasOwnProperty.call(m, "repoUrl")) {
                    if (!$util.isString(m.repoUrl))
                        return "repoUrl: string expected";
                }
                if (m.goal != null && Object.hasOwnProperty.call(m, "goal")) {
                    if (!$util.isString(m.goal))
                        return "goal: string expected";
                }
                if (m.files != null && Object.hasOwnProperty.call(m, "files")) {
                    if (!Array.isArray(m.files))
                        return "files: array expected";
                    for (var i = 0; i < m.files.length; ++i) {
                        if (!$util.isString(m.files[i]))
                            return "files: string[] expected";
                    }
                }
                if (m.firstFailure != null && Object.hasOwnProperty.call(m, "firstFailure")) {
                    if (!$util.isString(m.firstFailure))
                        return "firstFailure: string expected";
                }
                if (m.fix != null && Object.hasOwnProperty.call(m, "fix")) {
                    if (!$util.isString(m.fix))
                        return "fix: string expected";
                }
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId")) {
                    if (!$util.isString(m.taskId))
                        return "taskId: string expected";
                }
                return null;
            };

            /**
             * Creates a Lesson message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.Lesson
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.Lesson} Lesson
             */
            Lesson.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.Lesson)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.Lesson: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.Lesson();
                if (d.repoUrl != null) {
                    m.repoUrl = String(d.repoUrl);
                }
                if (d.goal != null) {
                    m.goal = String(d.goal);
                }
                if (d.files) {
                    if (!Array.isArray(d.files))
                        throw TypeError(".farm.v1.Lesson.files: array expected");
                    m.files = [];
                    for (var i = 0; i < d.files.length; ++i) {
                        m.files[i] = String(d.files[i]);
                    }
                }
                if (d.firstFailure != null) {
                    m.firstFailure = String(d.firstFailure);
                }
                if (d.fix != null) {
                    m.fix = String(d.fix);
                }
                if (d.taskId != null) {
                    m.taskId = String(d.taskId);
                }
                return m;
            };

            /**
             * Creates a plain object from a Lesson message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.Lesson
             * @static
             * @param {farm.v1.Lesson} m Lesson
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Lesson.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.files = [];
                }
                if (o.defaults) {
                    d.repoUrl = "";
                    d.goal = "";
                    d.firstFailure = "";
                    d.fix = "";
                    d.taskId = "";
                }
                if (m.repoUrl != null && Object.hasOwnProperty.call(m, "repoUrl")) {
                    d.repoUrl = m.repoUrl;
                }
                if (m.goal != null && Object.hasOwnProperty.call(m, "goal")) {
                    d.goal = m.goal;
                }
                if (m.files && m.files.length) {
                    d.files = [];
                    for (var j = 0; j < m.files.length; ++j) {
                        d.files[j] = m.files[j];
                    }
                }
                if (m.firstFailure != null && Object.hasOwnProperty.call(m, "firstFailure")) {
                    d.firstFailure = m.firstFailure;
                }
                if (m.fix != null && Object.hasOwnProperty.call(m, "fix")) {
                    d.fix = m.fix;
                }
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId")) {
                    d.taskId = m.taskId;
                }
                return d;
            };

            /**
             * Converts this Lesson to JSON.
             * @function toJSON
             * @memberof farm.v1.Lesson
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Lesson.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for Lesson
             * @function getTypeUrl
             * @memberof farm.v1.Lesson
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            Lesson.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.Lesson";
            };

            return Lesson;
        })();

        v1.ReviewVerdict = (function() {

            /**
             * Properties of a ReviewVerdict.
             * @memberof farm.v1
             * @interface IReviewVerdict
             * @property {boolean|null} [approved] ReviewVerdict approved
             * @property {Array.<string>|null} [objections] ReviewVerdict objections
             * @property {number|null} [round] ReviewVerdict round
             * @property {Array.<farm.v1.IReviewObjection>|null} [findings] ReviewVerdict findings
             * @property {number|null} [confidence] ReviewVerdict confidence
             * @property {boolean|null} [belowConfidence] ReviewVerdict belowConfidence
             * @property {boolean|null} [acceptedUnverified] ReviewVerdict acceptedUnverified
             */

            /**
             * Constructs a new ReviewVerdict.
             * @memberof farm.v1
             * @classdesc Represents a ReviewVerdict.
             * @implements IReviewVerdict
             * @constructor
             * @param {farm.v1.IReviewVerdict=} [p] Properties to set
             */
            function ReviewVerdict(p) {
                this.objections = [];
                this.findings = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * ReviewVerdict approved.
             * @member {boolean} approved
             * @memberof farm.v1.ReviewVerdict
             * @instance
             */
            ReviewVerdict.prototype.approved = false;

            /**
             * ReviewVerdict objections.
             * @member {Array.<string>} objections
             * @memberof farm.v1.ReviewVerdict
             * @instance
             */
            ReviewVerdict.prototype.objections = $util.emptyArray;

            /**
             * ReviewVerdict round.
             * @member {number} round
             * @memberof farm.v1.ReviewVerdict
             * @instance
             */
            ReviewVerdict.prototype.round = 0;

            /**
             * ReviewVerdict findings.
             * @member {Array.<farm.v1.IReviewObjection>} findings
             * @memberof farm.v1.ReviewVerdict
             * @instance
             */
            ReviewVerdict.prototype.findings = $util.emptyArray;

            /**
             * ReviewVerdict confidence.
             * @member {number} confidence
             * @memberof farm.v1.ReviewVerdict
             * @instance
             */
            ReviewVerdict.prototype.confidence = 0;

            /**
             * ReviewVerdict belowConfidence.
             * @member {boolean} belowConfidence
             * @memberof farm.v1.ReviewVerdict
             * @instance
             */
            ReviewVerdict.prototype.belowConfidence = false;

            /**
             * ReviewVerdict acceptedUnverified.
             * @member {boolean} acceptedUnverified
             * @memberof farm.v1.ReviewVerdict
             * @instance
             */
            ReviewVerdict.prototype.acceptedUnverified = false;

            /**
             * Creates a new ReviewVerdict instance using the specified properties.
             * @function create
             * @memberof farm.v1.ReviewVerdict
             * @static
             * @param {farm.v1.IReviewVerdict=} [properties] Properties to set
             * @returns {farm.v1.ReviewVerdict} ReviewVerdict instance
             */
            ReviewVerdict.create = function create(properties) {
                return new ReviewVerdict(properties);
            };

            /**
             * Encodes the specified ReviewVerdict message. Does not implicitly {@link farm.v1.ReviewVerdict.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.ReviewVerdict
             * @static
             * @param {farm.v1.IReviewVerdict} m ReviewVerdict message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReviewVerdict.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.approved != null && Object.hasOwnProperty.call(m, "approved"))
                    w.uint32(8).bool(m.approved);
                if (m.objections != null && m.objections.length) {
                    for (var i = 0; i < m.objections.length; ++i)
                        w.uint32(18).string(m.objections[i]);
                }
                if (m.round != null && Object.hasOwnProperty.call(m, "round"))
                    w.uint32(24).uint32(m.round);
                if (m.findings != null && m.findings.length) {
                    for (var i = 0; i < m.findings.length; ++i)
                        $root.farm.v1.ReviewObjection.encode(m.findings[i], w.uint32(34).fork(), q + 1).ldelim();
                }
                if (m.confidence != null && Object.hasOwnProperty.call(m, "confidence"))
                    w.uint32(41).double(m.confidence);
                if (m.belowConfidence != null && Object.hasOwnProperty.call(m, "belowConfidence"))
                    w.uint32(48).bool(m.belowConfidence);
                if (m.acceptedUnverified != null && Object.hasOwnProperty.call(m, "acceptedUnverified"))
                    w.uint32(56).bool(m.acceptedUnverified);
                return w;
            };

            /**
             * Encodes the specified ReviewVerdict message, length delimited. Does not implicitly {@link farm.v1.ReviewVerdict.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.ReviewVerdict
             * @static
             * @param {farm.v1.IReviewVerdict} message ReviewVerdict message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReviewVerdict.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a ReviewVerdict message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.ReviewVerdict
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.ReviewVerdict} ReviewVerdict
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReviewVerdict.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.ReviewVerdict();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.approved = r.bool();
                            break;
                        }
                    case 2: {
                            if (!(m.objections && m.objections.length))
                                m.objections = [];
                            m.objections.push(r.string());
                            break;
                        }
                    case 3: {
                            m.round = r.uint32();
                            break;
                        }
                    case 4: {
                            if (!(m.findings && m.findings.length))
                                m.findings = [];
                            m.findings.push($root.farm.v1.ReviewObjection.decode(r, r.uint32(), undefined, n + 1));
                            break;
                        }
                    case 5: {
                            m.confidence = r.double();
                            break;
                        }
                    case 6: {
                            m.belowConfidence = r.bool();
                            break;
                        }
                    case 7: {
                            m.acceptedUnverified = r.bool();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a ReviewVerdict message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.ReviewVerdict
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.ReviewVerdict} ReviewVerdict
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReviewVerdict.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a ReviewVerdict message.
             * @function verify
             * @memberof farm.v1.ReviewVerdict
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ReviewVerdict.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.approved != null && Object.hasOwnProperty.call(m, "approved")) {
                    if (typeof m.approved !== "boolean")
                        return "approved: boolean expected";
                }
                if (m.objections != null && Object.hasOwnProperty.call(m, "objections")) {
                    if (!Array.isArray(m.objections))
                        return "objections: array expected";
                    for (var i = 0; i < m.objections.length; ++i) {
                        if (!$util.isString(m.objections[i]))
                            return "objections: string[] expected";
                    }
                }
                if (m.round != null && Object.hasOwnProperty.call(m, "round")) {
                    if (!$util.isInteger(m.round))
                        return "round: integer expected";
                }
                if (m.findings != null && Object.hasOwnProperty.call(m, "findings")) {
                    if (!Array.isArray(m.findings))
                        return "findings: array expected";
                    for (var i = 0; i < m.findings.length; ++i) {
                        {
                            var e = $root.farm.v1.ReviewObjection.verify(m.findings[i], n + 1);
                            if (e)
                                return "findings." + e;
                        }
                    }
                }
                if (m.confidence != null && Object.hasOwnProperty.call(m, "confidence")) {
                    if (typeof m.confidence !== "number")
                        return "confidence: number expected";
                }
                if (m.belowConfidence != null && Object.hasOwnProperty.call(m, "belowConfidence")) {
                    if (typeof m.belowConfidence !== "boolean")
                        return "belowConfidence: boolean expected";
                }
                if (m.acceptedUnverified != null && Object.hasOwnProperty.call(m, "acceptedUnverified")) {
                    if (typeof m.acceptedUnverified !== "boolean")
                        return "acceptedUnverified: boolean expected";
                }
                return null;
            };

            /**
             * Creates a ReviewVerdict message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.ReviewVerdict
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.ReviewVerdict} ReviewVerdict
             */
            ReviewVerdict.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.ReviewVerdict)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.ReviewVerdict: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.ReviewVerdict();
                if (d.approved != null) {
                    m.approved = Boolean(d.approved);
                }
                if (d.objections) {
                    if (!Array.isArray(d.objections))
                        throw TypeError(".farm.v1.ReviewVerdict.objections: array expected");
                    m.objections = [];
                    for (var i = 0; i < d.objections.length; ++i) {
                        m.objections[i] = String(d.objections[i]);
                    }
                }
                if (d.round != null) {
                    m.round = d.round >>> 0;
                }
                if (d.findings) {
                    if (!Array.isArray(d.findings))
                        throw TypeError(".farm.v1.ReviewVerdict.findings: array expected");
                    m.findings = [];
                    for (var i = 0; i < d.findings.length; ++i) {
                        if (!$util.isObject(d.findings[i]))
                            throw TypeError(".farm.v1.ReviewVerdict.findings: object expected");
                        m.findings[i] = $root.farm.v1.ReviewObjection.fromObject(d.findings[i], n + 1);
                    }
                }
                if (d.confidence != null) {
                    m.confidence = Number(d.confidence);
                }
                if (d.belowConfidence != null) {
                    m.belowConfidence = Boolean(d.belowConfidence);
                }
                if (d.acceptedUnverified != null) {
                    m.acceptedUnverified = Boolean(d.acceptedUnverified);
                }
                return m;
            };

            /**
             * Creates a plain object from a ReviewVerdict message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.ReviewVerdict
             * @static
             * @param {farm.v1.ReviewVerdict} m ReviewVerdict
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ReviewVerdict.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.objections = [];
                    d.findings = [];
                }
                if (o.defaults) {
                    d.approved = false;
                    d.round = 0;
                    d.confidence = 0;
                    d.belowConfidence = false;
                    d.acceptedUnverified = false;
                }
                if (m.approved != null && Object.hasOwnProperty.call(m, "approved")) {
                    d.approved = m.approved;
                }
                if (m.objections && m.objections.length) {
                    d.objections = [];
                    for (var j = 0; j < m.objections.length; ++j) {
                        d.objections[j] = m.objections[j];
                    }
                }
                if (m.round != null && Object.hasOwnProperty.call(m, "round")) {
                    d.round = m.round;
                }
                if (m.findings && m.findings.length) {
                    d.findings = [];
                    for (var j = 0; j < m.findings.length; ++j) {
                        d.findings[j] = $root.farm.v1.ReviewObjection.toObject(m.findings[j], o, q + 1);
                    }
                }
                if (m.confidence != null && Object.hasOwnProperty.call(m, "confidence")) {
                    d.confidence = o.json && !isFinite(m.confidence) ? String(m.confidence) : m.confidence;
                }
                if (m.belowConfidence != null && Object.hasOwnProperty.call(m, "belowConfidence")) {
                    d.belowConfidence = m.belowConfidence;
                }
                if (m.acceptedUnverified != null && Object.hasOwnProperty.call(m, "acceptedUnverified")) {
                    d.acceptedUnverified = m.acceptedUnverified;
                }
                return d;
            };

            /**
             * Converts this ReviewVerdict to JSON.
             * @function toJSON
             * @memberof farm.v1.ReviewVerdict
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ReviewVerdict.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for ReviewVerdict
             * @function getTypeUrl
             * @memberof farm.v1.ReviewVerdict
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            ReviewVerdict.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.ReviewVerdict";
            };

            return ReviewVerdict;
        })();

        v1.ReviewObjection = (function() {

            /**
             * Properties of a ReviewObjection.
             * @memberof farm.v1
             * @interface IReviewObjection
             * @property {string|null} [file] ReviewObjection file
             * @property {number|null} [line] ReviewObjection line
             * @property {string|null} [text] ReviewObjection text
             */

            /**
             * Constructs a new ReviewObjection.
             * @memberof farm.v1
             * @classdesc Represents a ReviewObjection.
             * @implements IReviewObjection
             * @constructor
             * @param {farm.v1.IReviewObjection=} [p] Properties to set
             */
            function ReviewObjection(p) {
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * ReviewObjection file.
             * @member {string} file
             * @memberof farm.v1.ReviewObjection
             * @instance
             */
            ReviewObjection.prototype.file = "";

            /**
             * ReviewObjection line.
             * @member {number} line
             * @memberof farm.v1.ReviewObjection
             * @instance
             */
            ReviewObjection.prototype.line = 0;

            /**
             * ReviewObjection text.
             * @member {string} text
             * @memberof farm.v1.ReviewObjection
             * @instance
             */
            ReviewObjection.prototype.text = "";

            /**
             * Creates a new ReviewObjection instance using the specified properties.
             * @function create
             * @memberof farm.v1.ReviewObjection
             * @static
             * @param {farm.v1.IReviewObjection=} [properties] Properties to set
             * @returns {farm.v1.ReviewObjection} ReviewObjection instance
             */
            ReviewObjection.create = function create(properties) {
                return new ReviewObjection(properties);
            };

            /**
             * Encodes the specified ReviewObjection message. Does not implicitly {@link farm.v1.ReviewObjection.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.ReviewObjection
             * @static
             * @param {farm.v1.IReviewObjection} m ReviewObjection message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReviewObjection.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.file != null && Object.hasOwnProperty.call(m, "file"))
                    w.uint32(10).string(m.file);
                if (m.line != null && Object.hasOwnProperty.call(m, "line"))
                    w.uint32(16).uint32(m.line);
                if (m.text != null && Object.hasOwnProperty.call(m, "text"))
                    w.uint32(26).string(m.text);
                return w;
            };

            /**
             * Encodes the specified ReviewObjection message, length delimited. Does not implicitly {@link farm.v1.ReviewObjection.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.ReviewObjection
             * @static
             * @param {farm.v1.IReviewObjection} message ReviewObjection message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            ReviewObjection.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a ReviewObjection message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.ReviewObjection
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.ReviewObjection} ReviewObjection
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReviewObjection.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.ReviewObjection();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.file = r.string();
                            break;
                        }
                    case 2: {
                            m.line = r.uint32();
                            break;
                        }
                    case 3: {
                            m.text = r.string();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a ReviewObjection message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.ReviewObjection
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.ReviewObjection} ReviewObjection
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            ReviewObjection.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a ReviewObjection message.
             * @function verify
             * @memberof farm.v1.ReviewObjection
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            ReviewObjection.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.file != null && Object.hasOwnProperty.call(m, "file")) {
                    if (!$util.isString(m.file))
                        return "file: string expected";
                }
                if (m.line != null && Object.hasOwnProperty.call(m, "line")) {
                    if (!$util.isInteger(m.line))
                        return "line: integer expected";
                }
                if (m.text != null && Object.hasOwnProperty.call(m, "text")) {
                    if (!$util.isString(m.text))
                        return "text: string expected";
                }
                return null;
            };

            /**
             * Creates a ReviewObjection message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.ReviewObjection
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.ReviewObjection} ReviewObjection
             */
            ReviewObjection.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.ReviewObjection)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.ReviewObjection: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.ReviewObjection();
                if (d.file != null) {
                    m.file = String(d.file);
                }
                if (d.line != null) {
                    m.line = d.line >>> 0;
                }
                if (d.text != null) {
                    m.text = String(d.text);
                }
                return m;
            };

            /**
             * Creates a plain object from a ReviewObjection message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.ReviewObjection
             * @static
             * @param {farm.v1.ReviewObjection} m ReviewObjection
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            ReviewObjection.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.defaults) {
                    d.file = "";
                    d.line = 0;
                    d.text = "";
                }
                if (m.file != null && Object.hasOwnProperty.call(m, "file")) {
                    d.file = m.file;
                }
                if (m.line != null && Object.hasOwnProperty.call(m, "line")) {
                    d.line = m.line;
                }
                if (m.text != null && Object.hasOwnProperty.call(m, "text")) {
                    d.text = m.text;
                }
                return d;
            };

            /**
             * Converts this ReviewObjection to JSON.
             * @function toJSON
             * @memberof farm.v1.ReviewObjection
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            ReviewObjection.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for ReviewObjection
             * @function getTypeUrl
             * @memberof farm.v1.ReviewObjection
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            ReviewObjection.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.ReviewObjection";
            };

            return ReviewObjection;
        })();

        v1.TaskBundle = (function() {

            /**
             * Properties of a TaskBundle.
             * @memberof farm.v1
             * @interface ITaskBundle
             * @property {string|null} [changeRequestId] TaskBundle changeRequestId
             * @property {farm.v1.IRepoRef|null} [repo] TaskBundle repo
             * @property {Array.<farm.v1.ICodingTask>|null} [tasks] TaskBundle tasks
             * @property {string|null} [planningError] TaskBundle planningError
             * @property {farm.v1.IModelUsage|null} [planning] TaskBundle planning
             */

            /**
             * Constructs a new TaskBundle.
             * @memberof farm.v1
             * @classdesc Represents a TaskBundle.
             * @implements ITaskBundle
             * @constructor
             * @param {farm.v1.ITaskBundle=} [p] Properties to set
             */
            function TaskBundle(p) {
                this.tasks = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * TaskBundle changeRequestId.
             * @member {string} changeRequestId
             * @memberof farm.v1.TaskBundle
             * @instance
             */
            TaskBundle.prototype.changeRequestId = "";

            /**
             * TaskBundle repo.
             * @member {farm.v1.IRepoRef|null|undefined} repo
             * @memberof farm.v1.TaskBundle
             * @instance
             */
            TaskBundle.prototype.repo = null;

            /**
             * TaskBundle tasks.
             * @member {Array.<farm.v1.ICodingTask>} tasks
             * @memberof farm.v1.TaskBundle
             * @instance
             */
            TaskBundle.prototype.tasks = $util.emptyArray;

            /**
             * TaskBundle planningError.
             * @member {string} planningError
             * @memberof farm.v1.TaskBundle
             * @instance
             */
            TaskBundle.prototype.planningError = "";

            /**
             * TaskBundle planning.
             * @member {farm.v1.IModelUsage|null|undefined} planning
             * @memberof farm.v1.TaskBundle
             * @instance
             */
            TaskBundle.prototype.planning = null;

            /**
             * Creates a new TaskBundle instance using the specified properties.
             * @function create
             * @memberof farm.v1.TaskBundle
             * @static
             * @param {farm.v1.ITaskBundle=} [properties] Properties to set
             * @returns {farm.v1.TaskBundle} TaskBundle instance
             */
            TaskBundle.create = function create(properties) {
                return new TaskBundle(properties);
            };

            /**
             * Encodes the specified TaskBundle message. Does not implicitly {@link farm.v1.TaskBundle.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.TaskBundle
             * @static
             * @param {farm.v1.ITaskBundle} m TaskBundle message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            TaskBundle.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId"))
                    w.uint32(10).string(m.changeRequestId);
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo"))
                    $root.farm.v1.RepoRef.encode(m.repo, w.uint32(18).fork(), q + 1).ldelim();
                if (m.tasks != null && m.tasks.length) {
                    for (var i = 0; i < m.tasks.length; ++i)
                        $root.farm.v1.CodingTask.encode(m.tasks[i], w.uint32(26).fork(), q + 1).ldelim();
                }
                if (m.planningError != null && Object.hasOwnProperty.call(m, "planningError"))
                    w.uint32(34).string(m.planningError);
                if (m.planning != null && Object.hasOwnProperty.call(m, "planning"))
                    $root.farm.v1.ModelUsage.encode(m.planning, w.uint32(42).fork(), q + 1).ldelim();
                return w;
            };

            /**
             * Encodes the specified TaskBundle message, length delimited. Does not implicitly {@link farm.v1.TaskBundle.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.TaskBundle
             * @static
             * @param {farm.v1.ITaskBundle} message TaskBundle message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            TaskBundle.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a TaskBundle message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.TaskBundle
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.TaskBundle} TaskBundle
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            TaskBundle.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.TaskBundle();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.changeRequestId = r.string();
                            break;
                        }
                    case 2: {
                            m.repo = $root.farm.v1.RepoRef.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    case 3: {
                            if (!(m.tasks && m.tasks.length))
                                m.tasks = [];
                            m.tasks.push($root.farm.v1.CodingTask.decode(r, r.uint32(), undefined, n + 1));
                            break;
                        }
                    case 4: {
                            m.planningError = r.string();
                            break;
                        }
                    case 5: {
                            m.planning = $root.farm.v1.ModelUsage.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a TaskBundle message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.TaskBundle
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.TaskBundle} TaskBundle
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            TaskBundle.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a TaskBundle message.
             * @function verify
             * @memberof farm.v1.TaskBundle
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            TaskBundle.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    if (!$util.isString(m.changeRequestId))
                        return "changeRequestId: string expected";
                }
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo")) {
                    {
                        var e = $root.farm.v1.RepoRef.verify(m.repo, n + 1);
                        if (e)
                            return "repo." + e;
                    }
                }
                if (m.tasks != null && Object.hasOwnProperty.call(m, "tasks")) {
                    if (!Array.isArray(m.tasks))
                        return "tasks: array expected";
                    for (var i = 0; i < m.tasks.length; ++i) {
                        {
                            var e = $root.farm.v1.CodingTask.verify(m.tasks[i], n + 1);
                            if (e)
                                return "tasks." + e;
                        }
                    }
                }
                if (m.planningError != null && Object.hasOwnProperty.call(m, "planningError")) {
                    if (!$util.isString(m.planningError))
                        return "planningError: string expected";
                }
                if (m.planning != null && Object.hasOwnProperty.call(m, "planning")) {
                    {
                        var e = $root.farm.v1.ModelUsage.verify(m.planning, n + 1);
                        if (e)
                            return "planning." + e;
                    }
                }
                return null;
            };

            /**
             * Creates a TaskBundle message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.TaskBundle
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.TaskBundle} TaskBundle
             */
            TaskBundle.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.TaskBundle)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.TaskBundle: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.TaskBundle();
                if (d.changeRequestId != null) {
                    m.changeRequestId = String(d.changeRequestId);
                }
                if (d.repo != null) {
                    if (!$util.isObject(d.repo))
                        throw TypeError(".farm.v1.TaskBundle.repo: object expected");
                    m.repo = $root.farm.v1.RepoRef.fromObject(d.repo, n + 1);
                }
                if (d.tasks) {
                    if (!Array.isArray(d.tasks))
                        throw TypeError(".farm.v1.TaskBundle.tasks: array expected");
                    m.tasks = [];
                    for (var i = 0; i < d.tasks.length; ++i) {
                        if (!$util.isObject(d.tasks[i]))
                            throw TypeError(".farm.v1.TaskBundle.tasks: object expected");
                        m.tasks[i] = $root.farm.v1.CodingTask.fromObject(d.tasks[i], n + 1);
                    }
                }
                if (d.planningError != null) {
                    m.planningError = String(d.planningError);
                }
                if (d.planning != null) {
                    if (!$util.isObject(d.planning))
                        throw TypeError(".farm.v1.TaskBundle.planning: object expected");
                    m.planning = $root.farm.v1.ModelUsage.fromObject(d.planning, n + 1);
                }
                return m;
            };

            /**
             * Creates a plain object from a TaskBundle message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.TaskBundle
             * @static
             * @param {farm.v1.TaskBundle} m TaskBundle
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            TaskBundle.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.tasks = [];
                }
                if (o.defaults) {
                    d.changeRequestId = "";
                    d.repo = null;
                    d.planningError = "";
                    d.planning = null;
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    d.changeRequestId = m.changeRequestId;
                }
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo")) {
                    d.repo = $root.farm.v1.RepoRef.toObject(m.repo, o, q + 1);
                }
                if (m.tasks && m.tasks.length) {
                    d.tasks = [];
                    for (var j = 0; j < m.tasks.length; ++j) {
                        d.tasks[j] = $root.farm.v1.CodingTask.toObject(m.tasks[j], o, q + 1);
                    }
                }
                if (m.planningError != null && Object.hasOwnProperty.call(m, "planningError")) {
                    d.planningError = m.planningError;
                }
                if (m.planning != null && Object.hasOwnProperty.call(m, "planning")) {
                    d.planning = $root.farm.v1.ModelUsage.toObject(m.planning, o, q + 1);
                }
                return d;
            };

            /**
             * Converts this TaskBundle to JSON.
             * @function toJSON
             * @memberof farm.v1.TaskBundle
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            TaskBundle.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for TaskBundle
             * @function getTypeUrl
             * @memberof farm.v1.TaskBundle
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            TaskBundle.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.TaskBundle";
            };

            return TaskBundle;
        })();

        v1.TokenUsage = (function() {

            /**
             * Properties of a TokenUsage.
             * @memberof farm.v1
             * @interface ITokenUsage
             * @property {number|null} [promptTokens] TokenUsage promptTokens
             * @property {number|null} [completionTokens] TokenUsage completionTokens
             * @property {number|null} [totalTokens] TokenUsage totalTokens
             * @property {number|null} [cachedInputTokens] TokenUsage cachedInputTokens
             */

            /**
             * Constructs a new TokenUsage.
             * @memberof farm.v1
             * @classdesc Represents a TokenUsage.
             * @implements ITokenUsage
             * @constructor
             * @param {farm.v1.ITokenUsage=} [p] Properties to set
             */
            function TokenUsage(p) {
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * TokenUsage promptTokens.
             * @member {number} promptTokens
             * @memberof farm.v1.TokenUsage
             * @instance
             */
            TokenUsage.prototype.promptTokens = 0;

            /**
             * TokenUsage completionTokens.
             * @member {number} completionTokens
             * @memberof farm.v1.TokenUsage
             * @instance
             */
            TokenUsage.prototype.completionTokens = 0;

            /**
             * TokenUsage totalTokens.
             * @member {number} totalTokens
             * @memberof farm.v1.TokenUsage
             * @instance
             */
            TokenUsage.prototype.totalTokens = 0;

            /**
             * TokenUsage cachedInputTokens.
             * @member {number} cachedInputTokens
             * @memberof farm.v1.TokenUsage
             * @instance
             */
            TokenUsage.prototype.cachedInputTokens = 0;

            /**
             * Creates a new TokenUsage instance using the specified properties.
             * @function create
             * @memberof farm.v1.TokenUsage
             * @static
             * @param {farm.v1.ITokenUsage=} [properties] Properties to set
             * @returns {farm.v1.TokenUsage} TokenUsage instance
             */
            TokenUsage.create = function create(properties) {
                return new TokenUsage(properties);
            };

            /**
             * Encodes the specified TokenUsage message. Does not implicitly {@link farm.v1.TokenUsage.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.TokenUsage
             * @static
             * @param {farm.v1.ITokenUsage} m TokenUsage message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            TokenUsage.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.promptTokens != null && Object.hasOwnProperty.call(m, "promptTokens"))
                    w.uint32(8).uint32(m.promptTokens);
                if (m.completionTokens != null && Object.hasOwnProperty.call(m, "completionTokens"))
                    w.uint32(16).uint32(m.completionTokens);
                if (m.totalTokens != null && Object.hasOwnProperty.call(m, "totalTokens"))
                    w.uint32(24).uint32(m.totalTokens);
                if (m.cachedInputTokens != null && Object.hasOwnProperty.call(m, "cachedInputTokens"))
                    w.uint32(32).uint32(m.cachedInputTokens);
                return w;
            };

            /**
             * Encodes the specified TokenUsage message, length delimited. Does not implicitly {@link farm.v1.TokenUsage.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.TokenUsage
             * @static
             * @param {farm.v1.ITokenUsage} message TokenUsage message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            TokenUsage.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a TokenUsage message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.TokenUsage
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.TokenUsage} TokenUsage
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            TokenUsage.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.TokenUsage();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.promptTokens = r.uint32();
                            break;
                        }
                    case 2: {
                            m.completionTokens = r.uint32();
                            break;
                        }
                    case 3: {
                            m.totalTokens = r.uint32();
                            break;
                        }
                    case 4: {
                            m.cachedInputTokens = r.uint32();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a TokenUsage message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.TokenUsage
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.TokenUsage} TokenUsage
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            TokenUsage.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a TokenUsage message.
             * @function verify
             * @memberof farm.v1.TokenUsage
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            TokenUsage.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.promptTokens != null && Object.hasOwnProperty.call(m, "promptTokens")) {
                    if (!$util.isInteger(m.promptTokens))
                        return "promptTokens: integer expected";
                }
                if (m.completionTokens != null && Object.hasOwnProperty.call(m, "completionTokens")) {
                    if (!$util.isInteger(m.completionTokens))
                        return "completionTokens: integer expected";
                }
                if (m.totalTokens != null && Object.hasOwnProperty.call(m, "totalTokens")) {
                    if (!$util.isInteger(m.totalTokens))
                        return "totalTokens: integer expected";
                }
                if (m.cachedInputTokens != null && Object.hasOwnProperty.call(m, "cachedInputTokens")) {
                    if (!$util.isInteger(m.cachedInputTokens))
                        return "cachedInputTokens: integer expected";
                }
                return null;
            };

            /**
             * Creates a TokenUsage message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.TokenUsage
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.TokenUsage} TokenUsage
             */
            TokenUsage.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.TokenUsage)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.TokenUsage: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.TokenUsage();
                if (d.promptTokens != null) {
                    m.promptTokens = d.promptTokens >>> 0;
                }
                if (d.completionTokens != null) {
                    m.completionTokens = d.completionTokens >>> 0;
                }
                if (d.totalTokens != null) {
                    m.totalTokens = d.totalTokens >>> 0;
                }
                if (d.cachedInputTokens != null) {
                    m.cachedInputTokens = d.cachedInputTokens >>> 0;
                }
                return m;
            };

            /**
             * Creates a plain object from a TokenUsage message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.TokenUsage
             * @static
             * @param {farm.v1.TokenUsage} m TokenUsage
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            TokenUsage.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.defaults) {
                    d.promptTokens = 0;
                    d.completionTokens = 0;
                    d.totalTokens = 0;
                    d.cachedInputTokens = 0;
                }
                if (m.promptTokens != null && Object.hasOwnProperty.call(m, "promptTokens")) {
                    d.promptTokens = m.promptTokens;
                }
                if (m.completionTokens != null && Object.hasOwnProperty.call(m, "completionTokens")) {
                    d.completionTokens = m.completionTokens;
                }
                if (m.totalTokens != null && Object.hasOwnProperty.call(m, "totalTokens")) {
                    d.totalTokens = m.totalTokens;
                }
                if (m.cachedInputTokens != null && Object.hasOwnProperty.call(m, "cachedInputTokens")) {
                    d.cachedInputTokens = m.cachedInputTokens;
                }
                return d;
            };

            /**
             * Converts this TokenUsage to JSON.
             * @function toJSON
             * @memberof farm.v1.TokenUsage
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            TokenUsage.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for TokenUsage
             * @function getTypeUrl
             * @memberof farm.v1.TokenUsage
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            TokenUsage.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.TokenUsage";
            };

            return TokenUsage;
        })();

        v1.StepDuration = (function() {

            /**
             * Properties of a StepDuration.
             * @memberof farm.v1
             * @interface IStepDuration
             * @property {string|null} [step] StepDuration step
             * @property {number|null} [attempt] StepDuration attempt
             * @property {number|null} [seconds] StepDuration seconds
             */

            /**
             * Constructs a new StepDuration.
             * @memberof farm.v1
             * @classdesc Represents a StepDuration.
             * @implements IStepDuration
             * @constructor
             * @param {farm.v1.IStepDuration=} [p] Properties to set
             */
            function StepDuration(p) {
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * StepDuration step.
             * @member {string} step
             * @memberof farm.v1.StepDuration
             * @instance
             */
            StepDuration.prototype.step = "";

            /**
             * StepDuration attempt.
             * @member {number} attempt
             * @memberof farm.v1.StepDuration
             * @instance
             */
            StepDuration.prototype.attempt = 0;

            /**
             * StepDuration seconds.
             * @member {number} seconds
             * @memberof farm.v1.StepDuration
             * @instance
             */
            StepDuration.prototype.seconds = 0;

            /**
             * Creates a new StepDuration instance using the specified properties.
             * @function create
             * @memberof farm.v1.StepDuration
             * @static
             * @param {farm.v1.IStepDuration=} [properties] Properties to set
             * @returns {farm.v1.StepDuration} StepDuration instance
             */
            StepDuration.create = function create(properties) {
                return new StepDuration(properties);
            };

            /**
             * Encodes the specified StepDuration message. Does not implicitly {@link farm.v1.StepDuration.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.StepDuration
             * @static
             * @param {farm.v1.IStepDuration} m StepDuration message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            StepDuration.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.step != null && Object.hasOwnProperty.call(m, "step"))
                    w.uint32(10).string(m.step);
                if (m.attempt != null && Object.hasOwnProperty.call(m, "attempt"))
                    w.uint32(16).uint32(m.attempt);
                if (m.seconds != null && Object.hasOwnProperty.call(m, "seconds"))
                    w.uint32(25).double(m.seconds);
                return w;
            };

            /**
             * Encodes the specified StepDuration message, length delimited. Does not implicitly {@link farm.v1.StepDuration.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.StepDuration
             * @static
             * @param {farm.v1.IStepDuration} message StepDuration message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            StepDuration.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a StepDuration message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.StepDuration
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.StepDuration} StepDuration
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            StepDuration.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.StepDuration();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.step = r.string();
                            break;
                        }
                    case 2: {
                            m.attempt = r.uint32();
                            break;
                        }
                    case 3: {
                            m.seconds = r.double();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a StepDuration message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.StepDuration
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.StepDuration} StepDuration
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            StepDuration.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a StepDuration message.
             * @function verify
             * @memberof farm.v1.StepDuration
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            StepDuration.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.step != null && Object.hasOwnProperty.call(m, "step")) {
                    if (!$util.isString(m.step))
                        return "step: string expected";
                }
                if (m.attempt != null && Object.hasOwnProperty.call(m, "attempt")) {
                    if (!$util.isInteger(m.attempt))
                        return "attempt: integer expected";
                }
                if (m.seconds != null && Object.hasOwnProperty.call(m, "seconds")) {
                    if (typeof m.seconds !== "number")
                        return "seconds: number expected";
                }
                return null;
            };

            /**
             * Creates a StepDuration message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.StepDuration
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.StepDuration} StepDuration
             */
            StepDuration.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.StepDuration)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.StepDuration: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.StepDuration();
                if (d.step != null) {
                    m.step = String(d.step);
                }
                if (d.attempt != null) {
                    m.attempt = d.attempt >>> 0;
                }
                if (d.seconds != null) {
                    m.seconds = Number(d.seconds);
                }
                return m;
            };

            /**
             * Creates a plain object from a StepDuration message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.StepDuration
             * @static
             * @param {farm.v1.StepDuration} m StepDuration
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            StepDuration.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.defaults) {
                    d.step = "";
                    d.attempt = 0;
                    d.seconds = 0;
                }
                if (m.step != null && Object.hasOwnProperty.call(m, "step")) {
                    d.step = m.step;
                }
                if (m.attempt != null && Object.hasOwnProperty.call(m, "attempt")) {
                    d.attempt = m.attempt;
                }
                if (m.seconds != null && Object.hasOwnProperty.call(m, "seconds")) {
                    d.seconds = o.json && !isFinite(m.seconds) ? String(m.seconds) : m.seconds;
                }
                return d;
            };

            /**
             * Converts this StepDuration to JSON.
             * @function toJSON
             * @memberof farm.v1.StepDuration
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            StepDuration.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for StepDuration
             * @function getTypeUrl
             * @memberof farm.v1.StepDuration
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            StepDuration.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.StepDuration";
            };

            return StepDuration;
        })();

        /**
         * FailedStep enum.
         * @name farm.v1.FailedStep
         * @enum {number}
         * @property {number} FAILED_STEP_UNSPECIFIED=0 FAILED_STEP_UNSPECIFIED value
         * @property {number} STEP_CLONE=1 STEP_CLONE value
         * @property {number} STEP_LLM=2 STEP_LLM value
         * @property {number} STEP_CHECK=3 STEP_CHECK value
         * @property {number} STEP_COMMIT=4 STEP_COMMIT value
         * @property {number} STEP_BRANCH=5 STEP_BRANCH value
         * @property {number} STEP_CLAIM=6 STEP_CLAIM value
         * @property {number} STEP_PUSH=7 STEP_PUSH value
         * @property {number} STEP_BUDGET=8 STEP_BUDGET value
         * @property {number} STEP_REVIEW=9 STEP_REVIEW value
         * @property {number} STEP_ATTEMPTS=10 STEP_ATTEMPTS value
         * @property {number} STEP_AGENT=11 STEP_AGENT value
         * @property {number} STEP_AGENT_DIED=12 STEP_AGENT_DIED value
         * @property {number} STEP_DEADLINE=13 STEP_DEADLINE value
         * @property {number} STEP_COST_CAP=14 STEP_COST_CAP value
         * @property {number} STEP_LAUNCH=15 STEP_LAUNCH value
         * @property {number} STEP_VERIFY=16 STEP_VERIFY value
         * @property {number} STEP_BUDGET_ENVIRONMENT=17 STEP_BUDGET_ENVIRONMENT value
         */
        v1.FailedStep = (function() {
            var valuesById = {}, values = Object.create(valuesById);
            values[valuesById[0] = "FAILED_STEP_UNSPECIFIED"] = 0;
            values[valuesById[1] = "STEP_CLONE"] = 1;
            values[valuesById[2] = "STEP_LLM"] = 2;
            values[valuesById[3] = "STEP_CHECK"] = 3;
            values[valuesById[4] = "STEP_COMMIT"] = 4;
            values[valuesById[5] = "STEP_BRANCH"] = 5;
            values[valuesById[6] = "STEP_CLAIM"] = 6;
            values[valuesById[7] = "STEP_PUSH"] = 7;
            values[valuesById[8] = "STEP_BUDGET"] = 8;
            values[valuesById[9] = "STEP_REVIEW"] = 9;
            values[valuesById[10] = "STEP_ATTEMPTS"] = 10;
            values[valuesById[11] = "STEP_AGENT"] = 11;
            values[valuesById[12] = "STEP_AGENT_DIED"] = 12;
            values[valuesById[13] = "STEP_DEADLINE"] = 13;
            values[valuesById[14] = "STEP_COST_CAP"] = 14;
            values[valuesById[15] = "STEP_LAUNCH"] = 15;
            values[valuesById[16] = "STEP_VERIFY"] = 16;
            values[valuesById[17] = "STEP_BUDGET_ENVIRONMENT"] = 17;
            return values;
        })();

        v1.VerifiedCheck = (function() {

            /**
             * Properties of a VerifiedCheck.
             * @memberof farm.v1
             * @interface IVerifiedCheck
             * @property {string|null} [name] VerifiedCheck name
             * @property {string|null} [run] VerifiedCheck run
             * @property {boolean|null} [ok] VerifiedCheck ok
             * @property {boolean|null} [skipped] VerifiedCheck skipped
             * @property {boolean|null} [foundNothing] VerifiedCheck foundNothing
             * @property {string|null} [reason] VerifiedCheck reason
             */

            /**
             * Constructs a new VerifiedCheck.
             * @memberof farm.v1
             * @classdesc Represents a VerifiedCheck.
             * @implements IVerifiedCheck
             * @constructor
             * @param {farm.v1.IVerifiedCheck=} [p] Properties to set
             */
            function VerifiedCheck(p) {
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * VerifiedCheck name.
             * @member {string} name
             * @memberof farm.v1.VerifiedCheck
             * @instance
             */
            VerifiedCheck.prototype.name = "";

            /**
             * VerifiedCheck run.
             * @member {string} run
             * @memberof farm.v1.VerifiedCheck
             * @instance
             */
            VerifiedCheck.prototype.run = "";

            /**
             * VerifiedCheck ok.
             * @member {boolean} ok
             * @memberof farm.v1.VerifiedCheck
             * @instance
             */
            VerifiedCheck.prototype.ok = false;

            /**
             * VerifiedCheck skipped.
             * @member {boolean} skipped
             * @memberof farm.v1.VerifiedCheck
             * @instance
             */
            VerifiedCheck.prototype.skipped = false;

            /**
             * VerifiedCheck foundNothing.
             * @member {boolean} foundNothing
             * @memberof farm.v1.VerifiedCheck
             * @instance
             */
            VerifiedCheck.prototype.foundNothing = false;

            /**
             * VerifiedCheck reason.
             * @member {string} reason
             * @memberof farm.v1.VerifiedCheck
             * @instance
             */
            VerifiedCheck.prototype.reason = "";

            /**
             * Creates a new VerifiedCheck instance using the specified properties.
             * @function create
             * @memberof farm.v1.VerifiedCheck
             * @static
             * @param {farm.v1.IVerifiedCheck=} [properties] Properties to set
             * @returns {farm.v1.VerifiedCheck} VerifiedCheck instance
             */
            VerifiedCheck.create = function create(properties) {
                return new VerifiedCheck(properties);
            };

            /**
             * Encodes the specified VerifiedCheck message. Does not implicitly {@link farm.v1.VerifiedCheck.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.VerifiedCheck
             * @static
             * @param {farm.v1.IVerifiedCheck} m VerifiedCheck message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            VerifiedCheck.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.name != null && Object.hasOwnProperty.call(m, "name"))
                    w.uint32(10).string(m.name);
                if (m.run != null && Object.hasOwnProperty.call(m, "run"))
                    w.uint32(18).string(m.run);
                if (m.ok != null && Object.hasOwnProperty.call(m, "ok"))
                    w.uint32(24).bool(m.ok);
                if (m.skipped != null && Object.hasOwnProperty.call(m, "skipped"))
                    w.uint32(32).bool(m.skipped);
                if (m.foundNothing != null && Object.hasOwnProperty.call(m, "foundNothing"))
                    w.uint32(40).bool(m.foundNothing);
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason"))
                    w.uint32(50).string(m.reason);
                return w;
            };

            /**
             * Encodes the specified VerifiedCheck message, length delimited. Does not implicitly {@link farm.v1.VerifiedCheck.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.VerifiedCheck
             * @static
             * @param {farm.v1.IVerifiedCheck} message VerifiedCheck message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            VerifiedCheck.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a VerifiedCheck message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.VerifiedCheck
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.VerifiedCheck} VerifiedCheck
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            VerifiedCheck.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.VerifiedCheck();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.name = r.string();
                            break;
                        }
                    case 2: {
                            m.run = r.string();
                            break;
                        }
                    case 3: {
                            m.ok = r.bool();
                            break;
                        }
                    case 4: {
                            m.skipped = r.bool();
                            break;
                        }
                    case 5: {
                            m.foundNothing = r.bool();
                            break;
                        }
                    case 6: {
                            m.reason = r.string();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a VerifiedCheck message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.VerifiedCheck
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.VerifiedCheck} VerifiedCheck
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            VerifiedCheck.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a VerifiedCheck message.
             * @function verify
             * @memberof farm.v1.VerifiedCheck
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            VerifiedCheck.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.name != null && Object.hasOwnProperty.call(m, "name")) {
                    if (!$util.isString(m.name))
                        return "name: string expected";
                }
                if (m.run != null && Object.hasOwnProperty.call(m, "run")) {
                    if (!$util.isString(m.run))
                        return "run: string expected";
                }
                if (m.ok != null && Object.hasOwnProperty.call(m, "ok")) {
                    if (typeof m.ok !== "boolean")
                        return "ok: boolean expected";
                }
                if (m.skipped != null && Object.hasOwnProperty.call(m, "skipped")) {
                    if (typeof m.skipped !== "boolean")
                        return "skipped: boolean expected";
                }
                if (m.foundNothing != null && Object.hasOwnProperty.call(m, "foundNothing")) {
                    if (typeof m.foundNothing !== "boolean")
                        return "foundNothing: boolean expected";
                }
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason")) {
                    if (!$util.isString(m.reason))
                        return "reason: string expected";
                }
                return null;
            };

            /**
             * Creates a VerifiedCheck message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.VerifiedCheck
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.VerifiedCheck} VerifiedCheck
             */
            VerifiedCheck.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.VerifiedCheck)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.VerifiedCheck: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.VerifiedCheck();
                if (d.name != null) {
                    m.name = String(d.name);
                }
                if (d.run != null) {
                    m.run = String(d.run);
                }
                if (d.ok != null) {
                    m.ok = Boolean(d.ok);
                }
                if (d.skipped != null) {
                    m.skipped = Boolean(d.skipped);
                }
                if (d.foundNothing != null) {
                    m.foundNothing = Boolean(d.foundNothing);
                }
                if (d.reason != null) {
                    m.reason = String(d.reason);
                }
                return m;
            };

            /**
             * Creates a plain object from a VerifiedCheck message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.VerifiedCheck
             * @static
             * @param {farm.v1.VerifiedCheck} m VerifiedCheck
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            VerifiedCheck.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.defaults) {
                    d.name = "";
                    d.run = "";
                    d.ok = false;
                    d.skipped = false;
                    d.foundNothing = false;
                    d.reason = "";
                }
                if (m.name != null && Object.hasOwnProperty.call(m, "name")) {
                    d.name = m.name;
                }
                if (m.run != null && Object.hasOwnProperty.call(m, "run")) {
                    d.run = m.run;
                }
                if (m.ok != null && Object.hasOwnProperty.call(m, "ok")) {
                    d.ok = m.ok;
                }
                if (m.skipped != null && Object.hasOwnProperty.call(m, "skipped")) {
                    d.skipped = m.skipped;
                }
                if (m.foundNothing != null && Object.hasOwnProperty.call(m, "foundNothing")) {
                    d.foundNothing = m.foundNothing;
                }
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason")) {
                    d.reason = m.reason;
                }
                return d;
            };

            /**
             * Converts this VerifiedCheck to JSON.
             * @function toJSON
             * @memberof farm.v1.VerifiedCheck
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            VerifiedCheck.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for VerifiedCheck
             * @function getTypeUrl
             * @memberof farm.v1.VerifiedCheck
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            VerifiedCheck.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.VerifiedCheck";
            };

            return VerifiedCheck;
        })();

        /**
         * TestRunOutcome enum.
         * @name farm.v1.TestRunOutcome
         * @enum {number}
         * @property {number} TEST_RUN_OUTCOME_UNSPECIFIED=0 TEST_RUN_OUTCOME_UNSPECIFIED value
         * @property {number} TEST_RUN_PASSED=1 TEST_RUN_PASSED value
         * @property {number} TEST_RUN_FAILED=2 TEST_RUN_FAILED value
         * @property {number} TEST_RUN_NOT_RUN=3 TEST_RUN_NOT_RUN value
         */
        v1.TestRunOutcome = (function() {
            var valuesById = {}, values = Object.create(valuesById);
            values[valuesById[0] = "TEST_RUN_OUTCOME_UNSPECIFIED"] = 0;
            values[valuesById[1] = "TEST_RUN_PASSED"] = 1;
            values[valuesById[2] = "TEST_RUN_FAILED"] = 2;
            values[valuesById[3] = "TEST_RUN_NOT_RUN"] = 3;
            return values;
        })();

        v1.Differential = (function() {

            /**
             * Properties of a Differential.
             * @memberof farm.v1
             * @interface IDifferential
             * @property {Array.<string>|null} [testFiles] Differential testFiles
             * @property {string|null} [command] Differential command
             * @property {boolean|null} [narrowed] Differential narrowed
             * @property {farm.v1.TestRunOutcome|null} [base] Differential base
             * @property {farm.v1.TestRunOutcome|null} [branch] Differential branch
             * @property {string|null} [reason] Differential reason
             */

            /**
             * Constructs a new Differential.
             * @memberof farm.v1
             * @classdesc Represents a Differential.
             * @implements IDifferential
             * @constructor
             * @param {farm.v1.IDifferential=} [p] Properties to set
             */
            function Differential(p) {
                this.testFiles = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * Differential testFiles.
             * @member {Array.<string>} testFiles
             * @memberof farm.v1.Differential
             * @instance
             */
            Differential.prototype.testFiles = $util.emptyArray;

            /**
             * Differential command.
             * @member {string} command
             * @memberof farm.v1.Differential
             * @instance
             */
            Differential.prototype.command = "";

            /**
             * Differential narrowed.
             * @member {boolean} narrowed
             * @memberof farm.v1.Differential
             * @instance
             */
            Differential.prototype.narrowed = false;

            /**
             * Differential base.
             * @member {farm.v1.TestRunOutcome} base
             * @memberof farm.v1.Differential
             * @instance
             */
            Differential.prototype.base = 0;

            /**
             * Differential branch.
             * @member {farm.v1.TestRunOutcome} branch
             * @memberof farm.v1.Differential
             * @instance
             */
            Differential.prototype.branch = 0;

            /**
             * Differential reason.
             * @member {string} reason
             * @memberof farm.v1.Differential
             * @instance
             */
            Differential.prototype.reason = "";

            /**
             * Creates a new Differential instance using the specified properties.
             * @function create
             * @memberof farm.v1.Differential
             * @static
             * @param {farm.v1.IDifferential=} [properties] Properties to set
             * @returns {farm.v1.Differential} Differential instance
             */
            Differential.create = function create(properties) {
                return new Differential(properties);
            };

            /**
             * Encodes the specified Differential message. Does not implicitly {@link farm.v1.Differential.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.Differential
             * @static
             * @param {farm.v1.IDifferential} m Differential message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Differential.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.testFiles != null && m.testFiles.length) {
                    for (var i = 0; i < m.testFiles.length; ++i)
                        w.uint32(10).string(m.testFiles[i]);
                }
                if (m.command != null && Object.hasOwnProperty.call(m, "command"))
                    w.uint32(18).string(m.command);
                if (m.narrowed != null && Object.hasOwnProperty.call(m, "narrowed"))
                    w.uint32(24).bool(m.narrowed);
                if (m.base != null && Object.hasOwnProperty.call(m, "base"))
                    w.uint32(32).int32(m.base);
                if (m.branch != null && Object.hasOwnProperty.call(m, "branch"))
                    w.uint32(40).int32(m.branch);
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason"))
                    w.uint32(50).string(m.reason);
                return w;
            };

            /**
             * Encodes the specified Differential message, length delimited. Does not implicitly {@link farm.v1.Differential.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.Differential
             * @static
             * @param {farm.v1.IDifferential} message Differential message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Differential.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a Differential message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.Differential
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.Differential} Differential
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Differential.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.Differential();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            if (!(m.testFiles && m.testFiles.length))
                                m.testFiles = [];
                            m.testFiles.push(r.string());
                            break;
                        }
                    case 2: {
                            m.command = r.string();
                            break;
                        }
                    case 3: {
                            m.narrowed = r.bool();
                            break;
                        }
                    case 4: {
                            m.base = r.int32();
                            break;
                        }
                    case 5: {
                            m.branch = r.int32();
                            break;
                        }
                    case 6: {
                            m.reason = r.string();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a Differential message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.Differential
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.Differential} Differential
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Differential.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a Differential message.
             * @function verify
             * @memberof farm.v1.Differential
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Differential.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.testFiles != null && Object.hasOwnProperty.call(m, "testFiles")) {
                    if (!Array.isArray(m.testFiles))
                        return "testFiles: array expected";
                    for (var i = 0; i < m.testFiles.length; ++i) {
                        if (!$util.isString(m.testFiles[i]))
                            return "testFiles: string[] expected";
                    }
                }
                if (m.command != null && Object.hasOwnProperty.call(m, "command")) {
                    if (!$util.isString(m.command))
                        return "command: string expected";
                }
                if (m.narrowed != null && Object.hasOwnProperty.call(m, "narrowed")) {
                    if (typeof m.narrowed !== "boolean")
                        return "narrowed: boolean expected";
                }
                if (m.base != null && Object.hasOwnProperty.call(m, "base")) {
                    switch (m.base) {
                    default:
                        return "base: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                        break;
                    }
                }
                if (m.branch != null && Object.hasOwnProperty.call(m, "branch")) {
                    switch (m.branch) {
                    default:
                        return "branch: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                        break;
                    }
                }
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason")) {
                    if (!$util.isString(m.reason))
                        return "reason: string expected";
                }
                return null;
            };

            /**
             * Creates a Differential message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.Differential
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.Differential} Differential
             */
            Differential.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.Differential)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.Differential: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.Differential();
                if (d.testFiles) {
                    if (!Array.isArray(d.testFiles))
                        throw TypeError(".farm.v1.Differential.testFiles: array expected");
                    m.testFiles = [];
                    for (var i = 0; i < d.testFiles.length; ++i) {
                        m.testFiles[i] = String(d.testFiles[i]);
                    }
                }
                if (d.command != null) {
                    m.command = String(d.command);
                }
                if (d.narrowed != null) {
                    m.narrowed = Boolean(d.narrowed);
                }
                switch (d.base) {
                default:
                    if (typeof d.base === "number") {
                        m.base = d.base;
                        break;
                    }
                    break;
                case "TEST_RUN_OUTCOME_UNSPECIFIED":
                case 0:
                    m.base = 0;
                    break;
                case "TEST_RUN_PASSED":
                case 1:
                    m.base = 1;
                    break;
                case "TEST_RUN_FAILED":
                case 2:
                    m.base = 2;
                    break;
                case "TEST_RUN_NOT_RUN":
                case 3:
                    m.base = 3;
                    break;
                }
                switch (d.branch) {
                default:
                    if (typeof d.branch === "number") {
                        m.branch = d.branch;
                        break;
                    }
                    break;
                case "TEST_RUN_OUTCOME_UNSPECIFIED":
                case 0:
                    m.branch = 0;
                    break;
                case "TEST_RUN_PASSED":
                case 1:
                    m.branch = 1;
                    break;
                case "TEST_RUN_FAILED":
                case 2:
                    m.branch = 2;
                    break;
                case "TEST_RUN_NOT_RUN":
                case 3:
                    m.branch = 3;
                    break;
                }
                if (d.reason != null) {
                    m.reason = String(d.reason);
                }
                return m;
            };

            /**
             * Creates a plain object from a Differential message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.Differential
             * @static
             * @param {farm.v1.Differential} m Differential
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Differential.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.testFiles = [];
                }
                if (o.defaults) {
                    d.command = "";
                    d.narrowed = false;
                    d.base = o.enums === String ? "TEST_RUN_OUTCOME_UNSPECIFIED" : 0;
                    d.branch = o.enums === String ? "TEST_RUN_OUTCOME_UNSPECIFIED" : 0;
                    d.reason = "";
                }
                if (m.testFiles && m.testFiles.length) {
                    d.testFiles = [];
                    for (var j = 0; j < m.testFiles.length; ++j) {
                        d.testFiles[j] = m.testFiles[j];
                    }
                }
                if (m.command != null && Object.hasOwnProperty.call(m, "command")) {
                    d.command = m.command;
                }
                if (m.narrowed != null && Object.hasOwnProperty.call(m, "narrowed")) {
                    d.narrowed = m.narrowed;
                }
                if (m.base != null && Object.hasOwnProperty.call(m, "base")) {
                    d.base = o.enums === String ? $root.farm.v1.TestRunOutcome[m.base] === undefined ? m.base : $root.farm.v1.TestRunOutcome[m.base] : m.base;
                }
                if (m.branch != null && Object.hasOwnProperty.call(m, "branch")) {
                    d.branch = o.enums === String ? $root.farm.v1.TestRunOutcome[m.branch] === undefined ? m.branch : $root.farm.v1.TestRunOutcome[m.branch] : m.branch;
                }
                if (m.reason != null && Object.hasOwnProperty.call(m, "reason")) {
                    d.reason = m.reason;
                }
                return d;
            };

            /**
             * Converts this Differential to JSON.
             * @function toJSON
             * @memberof farm.v1.Differential
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Differential.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for Differential
             * @function getTypeUrl
             * @memberof farm.v1.Differential
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            Differential.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.Differential";
            };

            return Differential;
        })();

        v1.Verification = (function() {

            /**
             * Properties of a Verification.
             * @memberof farm.v1
             * @interface IVerification
             * @property {Array.<farm.v1.IVerifiedCheck>|null} [checks] Verification checks
             * @property {farm.v1.IDifferential|null} [differential] Verification differential
             * @property {boolean|null} [testsOnly] Verification testsOnly
             * @property {string|null} [unverifiedReason] Verification unverifiedReason
             * @property {boolean|null} [acceptedByReviewer] Verification acceptedByReviewer
             * @property {string|null} [treeSha] Verification treeSha
             */

            /**
             * Constructs a new Verification.
             * @memberof farm.v1
             * @classdesc Represents a Verification.
             * @implements IVerification
             * @constructor
             * @param {farm.v1.IVerification=} [p] Properties to set
             */
            function Verification(p) {
                this.checks = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * Verification checks.
             * @member {Array.<farm.v1.IVerifiedCheck>} checks
             * @memberof farm.v1.Verification
             * @instance
             */
            Verification.prototype.checks = $util.emptyArray;

            /**
             * Verification differential.
             * @member {farm.v1.IDifferential|null|undefined} differential
             * @memberof farm.v1.Verification
             * @instance
             */
            Verification.prototype.differential = null;

            /**
             * Verification testsOnly.
             * @member {boolean} testsOnly
             * @memberof farm.v1.Verification
             * @instance
             */
            Verification.prototype.testsOnly = false;

            /**
             * Verification unverifiedReason.
             * @member {string} unverifiedReason
             * @memberof farm.v1.Verification
             * @instance
             */
            Verification.prototype.unverifiedReason = "";

            /**
             * Verification acceptedByReviewer.
             * @member {boolean} acceptedByReviewer
             * @memberof farm.v1.Verification
             * @instance
             */
            Verification.prototype.acceptedByReviewer = false;

            /**
             * Verification treeSha.
             * @member {string} treeSha
             * @memberof farm.v1.Verification
             * @instance
             */
            Verification.prototype.treeSha = "";

            /**
             * Creates a new Verification instance using the specified properties.
             * @function create
             * @memberof farm.v1.Verification
             * @static
             * @param {farm.v1.IVerification=} [properties] Properties to set
             * @returns {farm.v1.Verification} Verification instance
             */
            Verification.create = function create(properties) {
                return new Verification(properties);
            };

            /**
             * Encodes the specified Verification message. Does not implicitly {@link farm.v1.Verification.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.Verification
             * @static
             * @param {farm.v1.IVerification} m Verification message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Verification.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.checks != null && m.checks.length) {
                    for (var i = 0; i < m.checks.length; ++i)
                        $root.farm.v1.VerifiedCheck.encode(m.checks[i], w.uint32(10).fork(), q + 1).ldelim();
                }
                if (m.differential != null && Object.hasOwnProperty.call(m, "differential"))
                    $root.farm.v1.Differential.encode(m.differential, w.uint32(18).fork(), q + 1).ldelim();
                if (m.testsOnly != null && Object.hasOwnProperty.call(m, "testsOnly"))
                    w.uint32(24).bool(m.testsOnly);
                if (m.unverifiedReason != null && Object.hasOwnProperty.call(m, "unverifiedReason"))
                    w.uint32(34).string(m.unverifiedReason);
                if (m.acceptedByReviewer != null && Object.hasOwnProperty.call(m, "acceptedByReviewer"))
                    w.uint32(40).bool(m.acceptedByReviewer);
                if (m.treeSha != null && Object.hasOwnProperty.call(m, "treeSha"))
                    w.uint32(50).string(m.treeSha);
                return w;
            };

            /**
             * Encodes the specified Verification message, length delimited. Does not implicitly {@link farm.v1.Verification.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.Verification
             * @static
             * @param {farm.v1.IVerification} message Verification message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Verification.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a Verification message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.Verification
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.Verification} Verification
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Verification.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.Verification();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            if (!(m.checks && m.checks.length))
                                m.checks = [];
                            m.checks.push($root.farm.v1.VerifiedCheck.decode(r, r.uint32(), undefined, n + 1));
                            break;
                        }
                    case 2: {
                            m.differential = $root.farm.v1.Differential.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    case 3: {
                            m.testsOnly = r.bool();
                            break;
                        }
                    case 4: {
                            m.unverifiedReason = r.string();
                            break;
                        }
                    case 5: {
                            m.acceptedByReviewer = r.bool();
                            break;
                        }
                    case 6: {
                            m.treeSha = r.string();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a Verification message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.Verification
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.Verification} Verification
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Verification.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a Verification message.
             * @function verify
             * @memberof farm.v1.Verification
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Verification.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.checks != null && Object.hasOwnProperty.call(m, "checks")) {
                    if (!Array.isArray(m.checks))
                        return "checks: array expected";
                    for (var i = 0; i < m.checks.length; ++i) {
                        {
                            var e = $root.farm.v1.VerifiedCheck.verify(m.checks[i], n + 1);
                            if (e)
                                return "checks." + e;
                        }
                    }
                }
                if (m.differential != null && Object.hasOwnProperty.call(m, "differential")) {
                    {
                        var e = $root.farm.v1.Differential.verify(m.differential, n + 1);
                        if (e)
                            return "differential." + e;
                    }
                }
                if (m.testsOnly != null && Object.hasOwnProperty.call(m, "testsOnly")) {
                    if (typeof m.testsOnly !== "boolean")
                        return "testsOnly: boolean expected";
                }
                if (m.unverifiedReason != null && Object.hasOwnProperty.call(m, "unverifiedReason")) {
                    if (!$util.isString(m.unverifiedReason))
                        return "unverifiedReason: string expected";
                }
                if (m.acceptedByReviewer != null && Object.hasOwnProperty.call(m, "acceptedByReviewer")) {
                    if (typeof m.acceptedByReviewer !== "boolean")
                        return "acceptedByReviewer: boolean expected";
                }
                if (m.treeSha != null && Object.hasOwnProperty.call(m, "treeSha")) {
                    if (!$util.isString(m.treeSha))
                        return "treeSha: string expected";
                }
                return null;
            };

            /**
             * Creates a Verification message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.Verification
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.Verification} Verification
             */
            Verification.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.Verification)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.Verification: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.Verification();
                if (d.checks) {
                    if (!Array.isArray(d.checks))
                        throw TypeError(".farm.v1.Verification.checks: array expected");
                    m.checks = [];
                    for (var i = 0; i < d.checks.length; ++i) {
                        if (!$util.isObject(d.checks[i]))
                            throw TypeError(".farm.v1.Verification.checks: object expected");
                        m.checks[i] = $root.farm.v1.VerifiedCheck.fromObject(d.checks[i], n + 1);
                    }
                }
                if (d.differential != null) {
                    if (!$util.isObject(d.differential))
                        throw TypeError(".farm.v1.Verification.differential: object expected");
                    m.differential = $root.farm.v1.Differential.fromObject(d.differential, n + 1);
                }
                if (d.testsOnly != null) {
                    m.testsOnly = Boolean(d.testsOnly);
                }
                if (d.unverifiedReason != null) {
                    m.unverifiedReason = String(d.unverifiedReason);
                }
                if (d.acceptedByReviewer != null) {
                    m.acceptedByReviewer = Boolean(d.acceptedByReviewer);
                }
                if (d.treeSha != null) {
                    m.treeSha = String(d.treeSha);
                }
                return m;
            };

            /**
             * Creates a plain object from a Verification message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.Verification
             * @static
             * @param {farm.v1.Verification} m Verification
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Verification.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.checks = [];
                }
                if (o.defaults) {
                    d.differential = null;
                    d.testsOnly = false;
                    d.unverifiedReason = "";
                    d.acceptedByReviewer = false;
                    d.treeSha = "";
                }
                if (m.checks && m.checks.length) {
                    d.checks = [];
                    for (var j = 0; j < m.checks.length; ++j) {
                        d.checks[j] = $root.farm.v1.VerifiedCheck.toObject(m.checks[j], o, q + 1);
                    }
                }
                if (m.differential != null && Object.hasOwnProperty.call(m, "differential")) {
                    d.differential = $root.farm.v1.Differential.toObject(m.differential, o, q + 1);
                }
                if (m.testsOnly != null && Object.hasOwnProperty.call(m, "testsOnly")) {
                    d.testsOnly = m.testsOnly;
                }
                if (m.unverifiedReason != null && Object.hasOwnProperty.call(m, "unverifiedReason")) {
                    d.unverifiedReason = m.unverifiedReason;
                }
                if (m.acceptedByReviewer != null && Object.hasOwnProperty.call(m, "acceptedByReviewer")) {
                    d.acceptedByReviewer = m.acceptedByReviewer;
                }
                if (m.treeSha != null && Object.hasOwnProperty.call(m, "treeSha")) {
                    d.treeSha = m.treeSha;
                }
                return d;
            };

            /**
             * Converts this Verification to JSON.
             * @function toJSON
             * @memberof farm.v1.Verification
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Verification.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for Verification
             * @function getTypeUrl
             * @memberof farm.v1.Verification
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            Verification.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.Verification";
            };

            return Verification;
        })();

        v1.CommitResult = (function() {

            /**
             * Properties of a CommitResult.
             * @memberof farm.v1
             * @interface ICommitResult
             * @property {string|null} [taskId] CommitResult taskId
             * @property {string|null} [commitSha] CommitResult commitSha
             * @property {farm.v1.CommitStatus|null} [status] CommitResult status
             * @property {string|null} [branchName] CommitResult branchName
             * @property {Array.<string>|null} [notes] CommitResult notes
             * @property {string|null} [changeRequestId] CommitResult changeRequestId
             * @property {number|null} [attempts] CommitResult attempts
             * @property {farm.v1.ITokenUsage|null} [tokenUsage] CommitResult tokenUsage
             * @property {Array.<farm.v1.IStepDuration>|null} [stepDurations] CommitResult stepDurations
             * @property {farm.v1.FailedStep|null} [failedStep] CommitResult failedStep
             * @property {number|null} [dispatch] CommitResult dispatch
             * @property {number|null} [costUsd] CommitResult costUsd
             * @property {string|null} [model] CommitResult model
             * @property {number|null} [steps] CommitResult steps
             * @property {farm.v1.AgentStrategy|null} [strategy] CommitResult strategy
             * @property {farm.v1.ILesson|null} [lesson] CommitResult lesson
             * @property {Array.<farm.v1.IReviewVerdict>|null} [reviews] CommitResult reviews
             * @property {farm.v1.ITaskReport|null} [report] CommitResult report
             * @property {farm.v1.IVerification|null} [verification] CommitResult verification
             * @property {Array.<farm.v1.IMetricSample>|null} [agentMetrics] CommitResult agentMetrics
             */

            /**
             * Constructs a new CommitResult.
             * @memberof farm.v1
             * @classdesc Represents a CommitResult.
             * @implements ICommitResult
             * @constructor
             * @param {farm.v1.ICommitResult=} [p] Properties to set
             */
            function CommitResult(p) {
                this.notes = [];
                this.stepDurations = [];
                this.reviews = [];
                this.agentMetrics = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * CommitResult taskId.
             * @member {string} taskId
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.taskId = "";

            /**
             * CommitResult commitSha.
             * @member {string} commitSha
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.commitSha = "";

            /**
             * CommitResult status.
             * @member {farm.v1.CommitStatus} status
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.status = 0;

            /**
             * CommitResult branchName.
             * @member {string} branchName
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.branchName = "";

            /**
             * CommitResult notes.
             * @member {Array.<string>} notes
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.notes = $util.emptyArray;

            /**
             * CommitResult changeRequestId.
             * @member {string} changeRequestId
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.changeRequestId = "";

            /**
             * CommitResult attempts.
             * @member {number} attempts
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.attempts = 0;

            /**
             * CommitResult tokenUsage.
             * @member {farm.v1.ITokenUsage|null|undefined} tokenUsage
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.tokenUsage = null;

            /**
             * CommitResult stepDurations.
             * @member {Array.<farm.v1.IStepDuration>} stepDurations
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.stepDurations = $util.emptyArray;

            /**
             * CommitResult failedStep.
             * @member {farm.v1.FailedStep} failedStep
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.failedStep = 0;

            /**
             * CommitResult dispatch.
             * @member {number} dispatch
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.dispatch = 0;

            /**
             * CommitResult costUsd.
             * @member {number} costUsd
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.costUsd = 0;

            /**
             * CommitResult model.
             * @member {string} model
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.model = "";

            /**
             * CommitResult steps.
             * @member {number} steps
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.steps = 0;

            /**
             * CommitResult strategy.
             * @member {farm.v1.AgentStrategy} strategy
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.strategy = 0;

            /**
             * CommitResult lesson.
             * @member {farm.v1.ILesson|null|undefined} lesson
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.lesson = null;

            /**
             * CommitResult reviews.
             * @member {Array.<farm.v1.IReviewVerdict>} reviews
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.reviews = $util.emptyArray;

            /**
             * CommitResult report.
             * @member {farm.v1.ITaskReport|null|undefined} report
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.report = null;

            /**
             * CommitResult verification.
             * @member {farm.v1.IVerification|null|undefined} verification
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.verification = null;

            /**
             * CommitResult agentMetrics.
             * @member {Array.<farm.v1.IMetricSample>} agentMetrics
             * @memberof farm.v1.CommitResult
             * @instance
             */
            CommitResult.prototype.agentMetrics = $util.emptyArray;

            /**
             * Creates a new CommitResult instance using the specified properties.
             * @function create
             * @memberof farm.v1.CommitResult
             * @static
             * @param {farm.v1.ICommitResult=} [properties] Properties to set
             * @returns {farm.v1.CommitResult} CommitResult instance
             */
            CommitResult.create = function create(properties) {
                return new CommitResult(properties);
            };

            /**
             * Encodes the specified CommitResult message. Does not implicitly {@link farm.v1.CommitResult.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.CommitResult
             * @static
             * @param {farm.v1.ICommitResult} m CommitResult message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            CommitResult.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId"))
                    w.uint32(10).string(m.taskId);
                if (m.commitSha != null && Object.hasOwnProperty.call(m, "commitSha"))
                    w.uint32(18).string(m.commitSha);
                if (m.status != null && Object.hasOwnProperty.call(m, "status"))
                    w.uint32(24).int32(m.status);
                if (m.branchName != null && Object.hasOwnProperty.call(m, "branchName"))
                    w.uint32(34).string(m.branchName);
                if (m.notes != null && m.notes.length) {
                    for (var i = 0; i < m.notes.length; ++i)
                        w.uint32(42).string(m.notes[i]);
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId"))
                    w.uint32(50).string(m.changeRequestId);
                if (m.attempts != null && Object.hasOwnProperty.call(m, "attempts"))
                    w.uint32(56).uint32(m.attempts);
                if (m.tokenUsage != null && Object.hasOwnProperty.call(m, "tokenUsage"))
                    $root.farm.v1.TokenUsage.encode(m.tokenUsage, w.uint32(66).fork(), q + 1).ldelim();
                if (m.stepDurations != null && m.stepDurations.length) {
                    for (var i = 0; i < m.stepDurations.length; ++i)
                        $root.farm.v1.StepDuration.encode(m.stepDurations[i], w.uint32(74).fork(), q + 1).ldelim();
                }
                if (m.dispatch != null && Object.hasOwnProperty.call(m, "dispatch"))
                    w.uint32(88).uint32(m.dispatch);
                if (m.costUsd != null && Object.hasOwnProperty.call(m, "costUsd"))
                    w.uint32(97).double(m.costUsd);
                if (m.model != null && Object.hasOwnProperty.call(m, "model"))
                    w.uint32(106).string(m.model);
                if (m.steps != null && Object.hasOwnProperty.call(m, "steps"))
                    w.uint32(112).uint32(m.steps);
                if (m.strategy != null && Object.hasOwnProperty.call(m, "strategy"))
                    w.uint32(120).int32(m.strategy);
                if (m.lesson != null && Object.hasOwnProperty.call(m, "lesson"))
                    $root.farm.v1.Lesson.encode(m.lesson, w.uint32(130).fork(), q + 1).ldelim();
                if (m.reviews != null && m.reviews.length) {
                    for (var i = 0; i < m.reviews.length; ++i)
                        $root.farm.v1.ReviewVerdict.encode(m.reviews[i], w.uint32(138).fork(), q + 1).ldelim();
                }
                if (m.failedStep != null && Object.hasOwnProperty.call(m, "failedStep"))
                    w.uint32(144).int32(m.failedStep);
                if (m.report != null && Object.hasOwnProperty.call(m, "report"))
                    $root.farm.v1.TaskReport.encode(m.report, w.uint32(154).fork(), q + 1).ldelim();
                if (m.verification != null && Object.hasOwnProperty.call(m, "verification"))
                    $root.farm.v1.Verification.encode(m.verification, w.uint32(162).fork(), q + 1).ldelim();
                if (m.agentMetrics != null && m.agentMetrics.length) {
                    for (var i = 0; i < m.agentMetrics.length; ++i)
                        $root.farm.v1.MetricSample.encode(m.agentMetrics[i], w.uint32(170).fork(), q + 1).ldelim();
                }
                return w;
            };

            /**
             * Encodes the specified CommitResult message, length delimited. Does not implicitly {@link farm.v1.CommitResult.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.CommitResult
             * @static
             * @param {farm.v1.ICommitResult} message CommitResult message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            CommitResult.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a CommitResult message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.CommitResult
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.CommitResult} CommitResult
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            CommitResult.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.CommitResult();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.taskId = r.string();
                            break;
                        }
                    case 2: {
                            m.commitSha = r.string();
                            break;
                        }
                    case 3: {
                            m.status = r.int32();
                            break;
                        }
                    case 4: {
                            m.branchName = r.string();
                            break;
                        }
                    case 5: {
                            if (!(m.notes && m.notes.length))
                                m.notes = [];
                            m.notes.push(r.string());
                            break;
                        }
                    case 6: {
                            m.changeRequestId = r.string();
                            break;
                        }
                    case 7: {
                            m.attempts = r.uint32();
                            break;
                        }
                    case 8: {
                            m.tokenUsage = $root.farm.v1.TokenUsage.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    case 9: {
                            if (!(m.stepDurations && m.stepDurations.length))
                                m.stepDurations = [];
                            m.stepDurations.push($root.farm.v1.StepDuration.decode(r, r.uint32(), undefined, n + 1));
                            break;
                        }
                    case 18: {
                            m.failedStep = r.int32();
                            break;
                        }
                    case 11: {
                            m.dispatch = r.uint32();
                            break;
                        }
                    case 12: {
                            m.costUsd = r.double();
                            break;
                        }
                    case 13: {
                            m.model = r.string();
                            break;
                        }
                    case 14: {
                            m.steps = r.uint32();
                            break;
                        }
                    case 15: {
                            m.strategy = r.int32();
                            break;
                        }
                    case 16: {
                            m.lesson = $root.farm.v1.Lesson.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    case 17: {
                            if (!(m.reviews && m.reviews.length))
                                m.reviews = [];
                            m.reviews.push($root.farm.v1.ReviewVerdict.decode(r, r.uint32(), undefined, n + 1));
                            break;
                        }
                    case 19: {
                            m.report = $root.farm.v1.TaskReport.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    case 20: {
                            m.verification = $root.farm.v1.Verification.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    case 21: {
                            if (!(m.agentMetrics && m.agentMetrics.length))
                                m.agentMetrics = [];
                            m.agentMetrics.push($root.farm.v1.MetricSample.decode(r, r.uint32(), undefined, n + 1));
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a CommitResult message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.CommitResult
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.CommitResult} CommitResult
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            CommitResult.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a CommitResult message.
             * @function verify
             * @memberof farm.v1.CommitResult
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            CommitResult.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId")) {
                    if (!$util.isString(m.taskId))
                        return "taskId: string expected";
                }
                if (m.commitSha != null && Object.hasOwnProperty.call(m, "commitSha")) {
                    if (!$util.isString(m.commitSha))
                        return "commitSha: string expected";
                }
                if (m.status != null && Object.hasOwnProperty.call(m, "status")) {
                    switch (m.status) {
                    default:
                        return "status: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                        break;
                    }
                }
                if (m.branchName != null && Object.hasOwnProperty.call(m, "branchName")) {
                    if (!$util.isString(m.branchName))
                        return "branchName: string expected";
                }
                if (m.notes != null && Object.hasOwnProperty.call(m, "notes")) {
                    if (!Array.isArray(m.notes))
                        return "notes: array expected";
                    for (var i = 0; i < m.notes.length; ++i) {
                        if (!$util.isString(m.notes[i]))
                            return "notes: string[] expected";
                    }
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    if (!$util.isString(m.changeRequestId))
                        return "changeRequestId: string expected";
                }
                if (m.attempts != null && Object.hasOwnProperty.call(m, "attempts")) {
                    if (!$util.isInteger(m.attempts))
                        return "attempts: integer expected";
                }
                if (m.tokenUsage != null && Object.hasOwnProperty.call(m, "tokenUsage")) {
                    {
                        var e = $root.farm.v1.TokenUsage.verify(m.tokenUsage, n + 1);
                        if (e)
                            return "tokenUsage." + e;
                    }
                }
                if (m.stepDurations != null && Object.hasOwnProperty.call(m, "stepDurations")) {
                    if (!Array.isArray(m.stepDurations))
                        return "stepDurations: array expected";
                    for (var i = 0; i < m.stepDurations.length; ++i) {
                        {
                            var e = $root.farm.v1.StepDuration.verify(m.stepDurations[i], n + 1);
                            if (e)
                                return "stepDurations." + e;
                        }
                    }
                }
                if (m.failedStep != null && Object.hasOwnProperty.call(m, "failedStep")) {
                    switch (m.failedStep) {
                    default:
                        return "failedStep: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                    case 4:
                    case 5:
                    case 6:
                    case 7:
                    case 8:
                    case 9:
                    case 10:
                    case 11:
                    case 12:
                    case 13:
                    case 14:
                    case 15:
                    case 16:
                    case 17:
                        break;
                    }
                }
                if (m.dispatch != null && Object.hasOwnProperty.call(m, "dispatch")) {
                    if (!$util.isInteger(m.dispatch))
                        return "dispatch: integer expected";
                }
                if (m.costUsd != null && Object.hasOwnProperty.call(m, "costUsd")) {
                    if (typeof m.costUsd !== "number")
                        return "costUsd: number expected";
                }
                if (m.model != null && Object.hasOwnProperty.call(m, "model")) {
                    if (!$util.isString(m.model))
                        return "model: string expected";
                }
                if (m.steps != null && Object.hasOwnProperty.call(m, "steps")) {
                    if (!$util.isInteger(m.steps))
                        return "steps: integer expected";
                }
                if (m.strategy != null && Object.hasOwnProperty.call(m, "strategy")) {
                    switch (m.strategy) {
                    default:
                        return "strategy: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                        break;
                    }
                }
                if (m.lesson != null && Object.hasOwnProperty.call(m, "lesson")) {
                    {
                        var e = $root.farm.v1.Lesson.verify(m.lesson, n + 1);
                        if (e)
                            return "lesson." + e;
                    }
                }
                if (m.reviews != null && Object.hasOwnProperty.call(m, "reviews")) {
                    if (!Array.isArray(m.reviews))
                        return "reviews: array expected";
                    for (var i = 0; i < m.reviews.length; ++i) {
                        {
                            var e = $root.farm.v1.ReviewVerdict.verify(m.reviews[i], n + 1);
                            if (e)
                                return "reviews." + e;
                        }
                    }
                }
                if (m.report != null && Object.hasOwnProperty.call(m, "report")) {
                    {
                        var e = $root.farm.v1.TaskReport.verify(m.report, n + 1);
                        if (e)
                            return "report." + e;
                    }
                }
                if (m.verification != null && Object.hasOwnProperty.call(m, "verification")) {
                    {
                        var e = $root.farm.v1.Verification.verify(m.verification, n + 1);
                        if (e)
                            return "verification." + e;
                    }
                }
                if (m.agentMetrics != null && Object.hasOwnProperty.call(m, "agentMetrics")) {
                    if (!Array.isArray(m.agentMetrics))
                        return "agentMetrics: array expected";
                    for (var i = 0; i < m.agentMetrics.length; ++i) {
                        {
                            var e = $root.farm.v1.MetricSample.verify(m.agentMetrics[i], n + 1);
                            if (e)
                                return "agentMetrics." + e;
                        }
                    }
                }
                return null;
            };

            /**
             * Creates a CommitResult message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.CommitResult
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.CommitResult} CommitResult
             */
            CommitResult.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.CommitResult)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.CommitResult: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.CommitResult();
                if (d.taskId != null) {
                    m.taskId = String(d.taskId);
                }
                if (d.commitSha != null) {
                    m.commitSha = String(d.commitSha);
                }
                switch (d.status) {
                default:
                    if (typeof d.status === "number") {
                        m.status = d.status;
                        break;
                    }
                    break;
                case "COMMIT_STATUS_UNSPECIFIED":
                case 0:
                    m.status = 0;
                    break;
                case "SUCCESS":
                case 1:
                    m.status = 1;
                    break;
                case "SOFT_FAIL":
                case 2:
                    m.status = 2;
                    break;
                case "HARD_FAIL":
                case 3:
                    m.status = 3;
                    break;
                }
                if (d.branchName != null) {
                    m.branchName = String(d.branchName);
                }
                if (d.notes) {
                    if (!Array.isArray(d.notes))
                        throw TypeError(".farm.v1.CommitResult.notes: array expected");
                    m.notes = [];
                    for (var i = 0; i < d.notes.length; ++i) {
                        m.notes[i] = String(d.notes[i]);
                    }
                }
                if (d.changeRequestId != null) {
                    m.changeRequestId = String(d.changeRequestId);
                }
                if (d.attempts != null) {
                    m.attempts = d.attempts >>> 0;
                }
                if (d.tokenUsage != null) {
                    if (!$util.isObject(d.tokenUsage))
                        throw TypeError(".farm.v1.CommitResult.tokenUsage: object expected");
                    m.tokenUsage = $root.farm.v1.TokenUsage.fromObject(d.tokenUsage, n + 1);
                }
                if (d.stepDurations) {
                    if (!Array.isArray(d.stepDurations))
                        throw TypeError(".farm.v1.CommitResult.stepDurations: array expected");
                    m.stepDurations = [];
                    for (var i = 0; i < d.stepDurations.length; ++i) {
                        if (!$util.isObject(d.stepDurations[i]))
                            throw TypeError(".farm.v1.CommitResult.stepDurations: object expected");
                        m.stepDurations[i] = $root.farm.v1.StepDuration.fromObject(d.stepDurations[i], n + 1);
                    }
                }
                switch (d.failedStep) {
                default:
                    if (typeof d.failedStep === "number") {
                        m.failedStep = d.failedStep;
                        break;
                    }
                    break;
                case "FAILED_STEP_UNSPECIFIED":
                case 0:
                    m.failedStep = 0;
                    break;
                case "STEP_CLONE":
                case 1:
                    m.failedStep = 1;
                    break;
                case "STEP_LLM":
                case 2:
                    m.failedStep = 2;
                    break;
                case "STEP_CHECK":
                case 3:
                    m.failedStep = 3;
                    break;
                case "STEP_COMMIT":
                case 4:
                    m.failedStep = 4;
                    break;
                case "STEP_BRANCH":
                case 5:
                    m.failedStep = 5;
                    break;
                case "STEP_CLAIM":
                case 6:
                    m.failedStep = 6;
                    break;
                case "STEP_PUSH":
                case 7:
                    m.failedStep = 7;
                    break;
                case "STEP_BUDGET":
                case 8:
                    m.failedStep = 8;
                    break;
                case "STEP_REVIEW":
                case 9:
                    m.failedStep = 9;
                    break;
                case "STEP_ATTEMPTS":
                case 10:
                    m.failedStep = 10;
                    break;
                case "STEP_AGENT":
                case 11:
                    m.failedStep = 11;
                    break;
                case "STEP_AGENT_DIED":
                case 12:
                    m.failedStep = 12;
                    break;
                case "STEP_DEADLINE":
                case 13:
                    m.failedStep = 13;
                    break;
                case "STEP_COST_CAP":
                case 14:
                    m.failedStep = 14;
                    break;
                case "STEP_LAUNCH":
                case 15:
                    m.failedStep = 15;
                    break;
                case "STEP_VERIFY":
                case 16:
                    m.failedStep = 16;
                    break;
                case "STEP_BUDGET_ENVIRONMENT":
                case 17:
                    m.failedStep = 17;
                    break;
                }
                if (d.dispatch != null) {
                    m.dispatch = d.dispatch >>> 0;
                }
                if (d.costUsd != null) {
                    m.costUsd = Number(d.costUsd);
                }
                if (d.model != null) {
                    m.model = String(d.model);
                }
                if (d.steps != null) {
                    m.steps = d.steps >>> 0;
                }
                switch (d.strategy) {
                default:
                    if (typeof d.strategy === "number") {
                        m.strategy = d.strategy;
                        break;
                    }
                    break;
                case "AGENT_STRATEGY_UNSPECIFIED":
                case 0:
                    m.strategy = 0;
                    break;
                case "TOOLS":
                case 1:
                    m.strategy = 1;
                    break;
                case "DIFF":
                case 2:
                    m.strategy = 2;
                    break;
                }
                if (d.lesson != null) {
                    if (!$util.isObject(d.lesson))
                        throw TypeError(".farm.v1.CommitResult.lesson: object expected");
                    m.lesson = $root.farm.v1.Lesson.fromObject(d.lesson, n + 1);
                }
                if (d.reviews) {
                    if (!Array.isArray(d.reviews))
                        throw TypeError(".farm.v1.CommitResult.reviews: array expected");
                    m.reviews = [];
                    for (var i = 0; i < d.reviews.length; ++i) {
                        if (!$util.isObject(d.reviews[i]))
                            throw TypeError(".farm.v1.CommitResult.reviews: object expected");
                        m.reviews[i] = $root.farm.v1.ReviewVerdict.fromObject(d.reviews[i], n + 1);
                    }
                }
                if (d.report != null) {
                    if (!$util.isObject(d.report))
                        throw TypeError(".farm.v1.CommitResult.report: object expected");
                    m.report = $root.farm.v1.TaskReport.fromObject(d.report, n + 1);
                }
                if (d.verification != null) {
                    if (!$util.isObject(d.verification))
                        throw TypeError(".farm.v1.CommitResult.verification: object expected");
                    m.verification = $root.farm.v1.Verification.fromObject(d.verification, n + 1);
                }
                if (d.agentMetrics) {
                    if (!Array.isArray(d.agentMetrics))
                        throw TypeError(".farm.v1.CommitResult.agentMetrics: array expected");
                    m.agentMetrics = [];
                    for (var i = 0; i < d.agentMetrics.length; ++i) {
                        if (!$util.isObject(d.agentMetrics[i]))
                            throw TypeError(".farm.v1.CommitResult.agentMetrics: object expected");
                        m.agentMetrics[i] = $root.farm.v1.MetricSample.fromObject(d.agentMetrics[i], n + 1);
                    }
                }
                return m;
            };

            /**
             * Creates a plain object from a CommitResult message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.CommitResult
             * @static
             * @param {farm.v1.CommitResult} m CommitResult
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            CommitResult.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.notes = [];
                    d.stepDurations = [];
                    d.reviews = [];
                    d.agentMetrics = [];
                }
                if (o.defaults) {
                    d.taskId = "";
                    d.commitSha = "";
                    d.status = o.enums === String ? "COMMIT_STATUS_UNSPECIFIED" : 0;
                    d.branchName = "";
                    d.changeRequestId = "";
                    d.attempts = 0;
                    d.tokenUsage = null;
                    d.dispatch = 0;
                    d.costUsd = 0;
                    d.model = "";
                    d.steps = 0;
                    d.strategy = o.enums === String ? "AGENT_STRATEGY_UNSPECIFIED" : 0;
                    d.lesson = null;
                    d.failedStep = o.enums === String ? "FAILED_STEP_UNSPECIFIED" : 0;
                    d.report = null;
                    d.verification = null;
                }
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId")) {
                    d.taskId = m.taskId;
                }
                if (m.commitSha != null && Object.hasOwnProperty.call(m, "commitSha")) {
                    d.commitSha = m.commitSha;
                }
                if (m.status != null && Object.hasOwnProperty.call(m, "status")) {
                    d.status = o.enums === String ? $root.farm.v1.CommitStatus[m.status] === undefined ? m.status : $root.farm.v1.CommitStatus[m.status] : m.status;
                }
                if (m.branchName != null && Object.hasOwnProperty.call(m, "branchName")) {
                    d.branchName = m.branchName;
                }
                if (m.notes && m.notes.length) {
                    d.notes = [];
                    for (var j = 0; j < m.notes.length; ++j) {
                        d.notes[j] = m.notes[j];
                    }
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    d.changeRequestId = m.changeRequestId;
                }
                if (m.attempts != null && Object.hasOwnProperty.call(m, "attempts")) {
                    d.attempts = m.attempts;
                }
                if (m.tokenUsage != null && Object.hasOwnProperty.call(m, "tokenUsage")) {
                    d.tokenUsage = $root.farm.v1.TokenUsage.toObject(m.tokenUsage, o, q + 1);
                }
                if (m.stepDurations && m.stepDurations.length) {
                    d.stepDurations = [];
                    for (var j = 0; j < m.stepDurations.length; ++j) {
                        d.stepDurations[j] = $root.farm.v1.StepDuration.toObject(m.stepDurations[j], o, q + 1);
                    }
                }
                if (m.dispatch != null && Object.hasOwnProperty.call(m, "dispatch")) {
                    d.dispatch = m.dispatch;
                }
                if (m.costUsd != null && Object.hasOwnProperty.call(m, "costUsd")) {
                    d.costUsd = o.json && !isFinite(m.costUsd) ? String(m.costUsd) : m.costUsd;
                }
                if (m.model != null && Object.hasOwnProperty.call(m, "model")) {
                    d.model = m.model;
                }
                if (m.steps != null && Object.hasOwnProperty.call(m, "steps")) {
                    d.steps = m.steps;
                }
                if (m.strategy != null && Object.hasOwnProperty.call(m, "strategy")) {
                    d.strategy = o.enums === String ? $root.farm.v1.AgentStrategy[m.strategy] === undefined ? m.strategy : $root.farm.v1.AgentStrategy[m.strategy] : m.strategy;
                }
                if (m.lesson != null && Object.hasOwnProperty.call(m, "lesson")) {
                    d.lesson = $root.farm.v1.Lesson.toObject(m.lesson, o, q + 1);
                }
                if (m.reviews && m.reviews.length) {
                    d.reviews = [];
                    for (var j = 0; j < m.reviews.length; ++j) {
                        d.reviews[j] = $root.farm.v1.ReviewVerdict.toObject(m.reviews[j], o, q + 1);
                    }
                }
                if (m.failedStep != null && Object.hasOwnProperty.call(m, "failedStep")) {
                    d.failedStep = o.enums === String ? $root.farm.v1.FailedStep[m.failedStep] === undefined ? m.failedStep : $root.farm.v1.FailedStep[m.failedStep] : m.failedStep;
                }
                if (m.report != null && Object.hasOwnProperty.call(m, "report")) {
                    d.report = $root.farm.v1.TaskReport.toObject(m.report, o, q + 1);
                }
                if (m.verification != null && Object.hasOwnProperty.call(m, "verification")) {
                    d.verification = $root.farm.v1.Verification.toObject(m.verification, o, q + 1);
                }
                if (m.agentMetrics && m.agentMetrics.length) {
                    d.agentMetrics = [];
                    for (var j = 0; j < m.agentMetrics.length; ++j) {
                        d.agentMetrics[j] = $root.farm.v1.MetricSample.toObject(m.agentMetrics[j], o, q + 1);
                    }
                }
                return d;
            };

            /**
             * Converts this CommitResult to JSON.
             * @function toJSON
             * @memberof farm.v1.CommitResult
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            CommitResult.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for CommitResult
             * @function getTypeUrl
             * @memberof farm.v1.CommitResult
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            CommitResult.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.CommitResult";
            };

            return CommitResult;
        })();

        v1.MetricSample = (function() {

            /**
             * Properties of a MetricSample.
             * @memberof farm.v1
             * @interface IMetricSample
             * @property {string|null} [name] MetricSample name
             * @property {Object.<string,string>|null} [labels] MetricSample labels
             * @property {number|null} [value] MetricSample value
             */

            /**
             * Constructs a new MetricSample.
             * @memberof farm.v1
             * @classdesc Represents a MetricSample.
             * @implements IMetricSample
             * @constructor
             * @param {farm.v1.IMetricSample=} [p] Properties to set
             */
            function MetricSample(p) {
                this.labels = {};
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * MetricSample name.
             * @member {string} name
             * @memberof farm.v1.MetricSample
             * @instance
             */
            MetricSample.prototype.name = "";

            /**
             * MetricSample labels.
             * @member {Object.<string,string>} labels
             * @memberof farm.v1.MetricSample
             * @instance
             */
            MetricSample.prototype.labels = $util.emptyObject;

            /**
             * MetricSample value.
             * @member {number} value
             * @memberof farm.v1.MetricSample
             * @instance
             */
            MetricSample.prototype.value = 0;

            /**
             * Creates a new MetricSample instance using the specified properties.
             * @function create
             * @memberof farm.v1.MetricSample
             * @static
             * @param {farm.v1.IMetricSample=} [properties] Properties to set
             * @returns {farm.v1.MetricSample} MetricSample instance
             */
            MetricSample.create = function create(properties) {
                return new MetricSample(properties);
            };

            /**
             * Encodes the specified MetricSample message. Does not implicitly {@link farm.v1.MetricSample.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.MetricSample
             * @static
             * @param {farm.v1.IMetricSample} m MetricSample message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            MetricSample.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.name != null && Object.hasOwnProperty.call(m, "name"))
                    w.uint32(10).string(m.name);
                if (m.labels != null && Object.hasOwnProperty.call(m, "labels")) {
                    for (var ks = Object.keys(m.labels), i = 0; i < ks.length; ++i) {
                        w.uint32(18).fork().uint32(10).string(ks[i]).uint32(18).string(m.labels[ks[i]]).ldelim();
                    }
                }
                if (m.value != null && Object.hasOwnProperty.call(m, "value"))
                    w.uint32(25).double(m.value);
                return w;
            };

            /**
             * Encodes the specified MetricSample message, length delimited. Does not implicitly {@link farm.v1.MetricSample.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.MetricSample
             * @static
             * @param {farm.v1.IMetricSample} message MetricSample message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            MetricSample.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a MetricSample message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.MetricSample
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.MetricSample} MetricSample
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            MetricSample.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m, k, value;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.MetricSample();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.name = r.string();
                            break;
                        }
                    case 2: {
                            if (m.labels === $util.emptyObject)
                                m.labels = {};
                            var c2 = r.uint32() + r.pos;
                            if (c2 > r.len)
                                throw RangeError("index out of range");
                            r.len = c2;
                            k = "";
                            value = "";
                            while (r.pos < c2) {
                                var tag2 = r.uint32();
                                switch (tag2 >>> 3) {
                                case 1:
                                    k = r.string();
                                    break;
                                case 2:
                                    value = r.string();
                                    break;
                                default:
                                    r.skipType(tag2 & 7, n);
                                    break;
                                }
                            }
                            if (r.pos !== c2)
                                throw RangeError("index out of range");
                            r.len = c;
                            if (k === "__proto__")
                                $util.makeProp(m.labels, k);
                            m.labels[k] = value;
                            break;
                        }
                    case 3: {
                            m.value = r.double();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a MetricSample message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.MetricSample
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.MetricSample} MetricSample
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            MetricSample.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a MetricSample message.
             * @function verify
             * @memberof farm.v1.MetricSample
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            MetricSample.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.name != null && Object.hasOwnProperty.call(m, "name")) {
                    if (!$util.isString(m.name))
                        return "name: string expected";
                }
                if (m.labels != null && Object.hasOwnProperty.call(m, "labels")) {
                    if (!$util.isObject(m.labels))
                        return "labels: object expected";
                    var k = Object.keys(m.labels);
                    for (var i = 0; i < k.length; ++i) {
                        if (!$util.isString(m.labels[k[i]]))
                            return "labels: string{k:string} expected";
                    }
                }
                if (m.value != null && Object.hasOwnProperty.call(m, "value")) {
                    if (typeof m.value !== "number")
                        return "value: number expected";
                }
                return null;
            };

            /**
             * Creates a MetricSample message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.MetricSample
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.MetricSample} MetricSample
             */
            MetricSample.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.MetricSample)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.MetricSample: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.MetricSample();
                if (d.name != null) {
                    m.name = String(d.name);
                }
                if (d.labels) {
                    if (!$util.isObject(d.labels))
                        throw TypeError(".farm.v1.MetricSample.labels: object expected");
                    m.labels = {};
                    for (var ks = Object.keys(d.labels), i = 0; i < ks.length; ++i) {
                        if (ks[i] === "__proto__")
                            $util.makeProp(m.labels, ks[i]);
                        m.labels[ks[i]] = String(d.labels[ks[i]]);
                    }
                }
                if (d.value != null) {
                    m.value = Number(d.value);
                }
                return m;
            };

            /**
             * Creates a plain object from a MetricSample message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.MetricSample
             * @static
             * @param {farm.v1.MetricSample} m MetricSample
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            MetricSample.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.objects || o.defaults) {
                    d.labels = {};
                }
                if (o.defaults) {
                    d.name = "";
                    d.value = 0;
                }
                if (m.name != null && Object.hasOwnProperty.call(m, "name")) {
                    d.name = m.name;
                }
                var ks2;
                if (m.labels && (ks2 = Object.keys(m.labels)).length) {
                    d.labels = {};
                    for (var j = 0; j < ks2.length; ++j) {
                        if (ks2[j] === "__proto__")
                            $util.makeProp(d.labels, ks2[j]);
                        d.labels[ks2[j]] = m.labels[ks2[j]];
                    }
                }
                if (m.value != null && Object.hasOwnProperty.call(m, "value")) {
                    d.value = o.json && !isFinite(m.value) ? String(m.value) : m.value;
                }
                return d;
            };

            /**
             * Converts this MetricSample to JSON.
             * @function toJSON
             * @memberof farm.v1.MetricSample
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            MetricSample.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for MetricSample
             * @function getTypeUrl
             * @memberof farm.v1.MetricSample
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            MetricSample.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.MetricSample";
            };

            return MetricSample;
        })();

        v1.TaskReport = (function() {

            /**
             * Properties of a TaskReport.
             * @memberof farm.v1
             * @interface ITaskReport
             * @property {Array.<string>|null} [trajectory] TaskReport trajectory
             * @property {number|null} [trajectoryOmitted] TaskReport trajectoryOmitted
             * @property {string|null} [diff] TaskReport diff
             * @property {boolean|null} [diffTruncated] TaskReport diffTruncated
             */

            /**
             * Constructs a new TaskReport.
             * @memberof farm.v1
             * @classdesc Represents a TaskReport.
             * @implements ITaskReport
             * @constructor
             * @param {farm.v1.ITaskReport=} [p] Properties to set
             */
            function TaskReport(p) {
                this.trajectory = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * TaskReport trajectory.
             * @member {Array.<string>} trajectory
             * @memberof farm.v1.TaskReport
             * @instance
             */
            TaskReport.prototype.trajectory = $util.emptyArray;

            /**
             * TaskReport trajectoryOmitted.
             * @member {number} trajectoryOmitted
             * @memberof farm.v1.TaskReport
             * @instance
             */
            TaskReport.prototype.trajectoryOmitted = 0;

            /**
             * TaskReport diff.
             * @member {string} diff
             * @memberof farm.v1.TaskReport
             * @instance
             */
            TaskReport.prototype.diff = "";

            /**
             * TaskReport diffTruncated.
             * @member {boolean} diffTruncated
             * @memberof farm.v1.TaskReport
             * @instance
             */
            TaskReport.prototype.diffTruncated = false;

            /**
             * Creates a new TaskReport instance using the specified properties.
             * @function create
             * @memberof farm.v1.TaskReport
             * @static
             * @param {farm.v1.ITaskReport=} [properties] Properties to set
             * @returns {farm.v1.TaskReport} TaskReport instance
             */
            TaskReport.create = function create(properties) {
                return new TaskReport(properties);
            };

            /**
             * Encodes the specified TaskReport message. Does not implicitly {@link farm.v1.TaskReport.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.TaskReport
             * @static
             * @param {farm.v1.ITaskReport} m TaskReport message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            TaskReport.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.trajectory != null && m.trajectory.length) {
                    for (var i = 0; i < m.trajectory.length; ++i)
                        w.uint32(10).string(m.trajectory[i]);
                }
                if (m.trajectoryOmitted != null && Object.hasOwnProperty.call(m, "trajectoryOmitted"))
                    w.uint32(16).uint32(m.trajectoryOmitted);
                if (m.diff != null && Object.hasOwnProperty.call(m, "diff"))
                    w.uint32(26).string(m.diff);
                if (m.diffTruncated != null && Object.hasOwnProperty.call(m, "diffTruncated"))
                    w.uint32(32).bool(m.diffTruncated);
                return w;
            };

            /**
             * Encodes the specified TaskReport message, length delimited. Does not implicitly {@link farm.v1.TaskReport.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.TaskReport
             * @static
             * @param {farm.v1.ITaskReport} message TaskReport message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            TaskReport.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a TaskReport message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.TaskReport
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.TaskReport} TaskReport
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            TaskReport.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.TaskReport();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            if (!(m.trajectory && m.trajectory.length))
                                m.trajectory = [];
                            m.trajectory.push(r.string());
                            break;
                        }
                    case 2: {
                            m.trajectoryOmitted = r.uint32();
                            break;
                        }
                    case 3: {
                            m.diff = r.string();
                            break;
                        }
                    case 4: {
                            m.diffTruncated = r.bool();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a TaskReport message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.TaskReport
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.TaskReport} TaskReport
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            TaskReport.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a TaskReport message.
             * @function verify
             * @memberof farm.v1.TaskReport
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            TaskReport.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.trajectory != null && Object.hasOwnProperty.call(m, "trajectory")) {
                    if (!Array.isArray(m.trajectory))
                        return "trajectory: array expected";
                    for (var i = 0; i < m.trajectory.length; ++i) {
                        if (!$util.isString(m.trajectory[i]))
                            return "trajectory: string[] expected";
                    }
                }
                if (m.trajectoryOmitted != null && Object.hasOwnProperty.call(m, "trajectoryOmitted")) {
                    if (!$util.isInteger(m.trajectoryOmitted))
                        return "trajectoryOmitted: integer expected";
                }
                if (m.diff != null && Object.hasOwnProperty.call(m, "diff")) {
                    if (!$util.isString(m.diff))
                        return "diff: string expected";
                }
                if (m.diffTruncated != null && Object.hasOwnProperty.call(m, "diffTruncated")) {
                    if (typeof m.diffTruncated !== "boolean")
                        return "diffTruncated: boolean expected";
                }
                return null;
            };

            /**
             * Creates a TaskReport message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.TaskReport
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.TaskReport} TaskReport
             */
            TaskReport.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.TaskReport)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.TaskReport: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.TaskReport();
                if (d.trajectory) {
                    if (!Array.isArray(d.trajectory))
                        throw TypeError(".farm.v1.TaskReport.trajectory: array expected");
                    m.trajectory = [];
                    for (var i = 0; i < d.trajectory.length; ++i) {
                        m.trajectory[i] = String(d.trajectory[i]);
                    }
                }
                if (d.trajectoryOmitted != null) {
                    m.trajectoryOmitted = d.trajectoryOmitted >>> 0;
                }
                if (d.diff != null) {
                    m.diff = String(d.diff);
                }
                if (d.diffTruncated != null) {
                    m.diffTruncated = Boolean(d.diffTruncated);
                }
                return m;
            };

            /**
             * Creates a plain object from a TaskReport message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.TaskReport
             * @static
             * @param {farm.v1.TaskReport} m TaskReport
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            TaskReport.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.trajectory = [];
                }
                if (o.defaults) {
                    d.trajectoryOmitted = 0;
                    d.diff = "";
                    d.diffTruncated = false;
                }
                if (m.trajectory && m.trajectory.length) {
                    d.trajectory = [];
                    for (var j = 0; j < m.trajectory.length; ++j) {
                        d.trajectory[j] = m.trajectory[j];
                    }
                }
                if (m.trajectoryOmitted != null && Object.hasOwnProperty.call(m, "trajectoryOmitted")) {
                    d.trajectoryOmitted = m.trajectoryOmitted;
                }
                if (m.diff != null && Object.hasOwnProperty.call(m, "diff")) {
                    d.diff = m.diff;
                }
                if (m.diffTruncated != null && Object.hasOwnProperty.call(m, "diffTruncated")) {
                    d.diffTruncated = m.diffTruncated;
                }
                return d;
            };

            /**
             * Converts this TaskReport to JSON.
             * @function toJSON
             * @memberof farm.v1.TaskReport
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            TaskReport.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for TaskReport
             * @function getTypeUrl
             * @memberof farm.v1.TaskReport
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            TaskReport.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.TaskReport";
            };

            return TaskReport;
        })();

        v1.TaskStep = (function() {

            /**
             * Properties of a TaskStep.
             * @memberof farm.v1
             * @interface ITaskStep
             * @property {string|null} [changeRequestId] TaskStep changeRequestId
             * @property {string|null} [taskId] TaskStep taskId
             * @property {number|null} [dispatch] TaskStep dispatch
             * @property {string|null} [runId] TaskStep runId
             * @property {number|null} [seq] TaskStep seq
             * @property {string|null} [line] TaskStep line
             */

            /**
             * Constructs a new TaskStep.
             * @memberof farm.v1
             * @classdesc Represents a TaskStep.
             * @implements ITaskStep
             * @constructor
             * @param {farm.v1.ITaskStep=} [p] Properties to set
             */
            function TaskStep(p) {
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * TaskStep changeRequestId.
             * @member {string} changeRequestId
             * @memberof farm.v1.TaskStep
             * @instance
             */
            TaskStep.prototype.changeRequestId = "";

            /**
             * TaskStep taskId.
             * @member {string} taskId
             * @memberof farm.v1.TaskStep
             * @instance
             */
            TaskStep.prototype.taskId = "";

            /**
             * TaskStep dispatch.
             * @member {number} dispatch
             * @memberof farm.v1.TaskStep
             * @instance
             */
            TaskStep.prototype.dispatch = 0;

            /**
             * TaskStep runId.
             * @member {string} runId
             * @memberof farm.v1.TaskStep
             * @instance
             */
            TaskStep.prototype.runId = "";

            /**
             * TaskStep seq.
             * @member {number} seq
             * @memberof farm.v1.TaskStep
             * @instance
             */
            TaskStep.prototype.seq = 0;

            /**
             * TaskStep line.
             * @member {string} line
             * @memberof farm.v1.TaskStep
             * @instance
             */
            TaskStep.prototype.line = "";

            /**
             * Creates a new TaskStep instance using the specified properties.
             * @function create
             * @memberof farm.v1.TaskStep
             * @static
             * @param {farm.v1.ITaskStep=} [properties] Properties to set
             * @returns {farm.v1.TaskStep} TaskStep instance
             */
            TaskStep.create = function create(properties) {
                return new TaskStep(properties);
            };

            /**
             * Encodes the specified TaskStep message. Does not implicitly {@link farm.v1.TaskStep.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.TaskStep
             * @static
             * @param {farm.v1.ITaskStep} m TaskStep message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            TaskStep.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId"))
                    w.uint32(10).string(m.changeRequestId);
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId"))
                    w.uint32(18).string(m.taskId);
                if (m.dispatch != null && Object.hasOwnProperty.call(m, "dispatch"))
                    w.uint32(24).uint32(m.dispatch);
                if (m.runId != null && Object.hasOwnProperty.call(m, "runId"))
                    w.uint32(34).string(m.runId);
                if (m.seq != null && Object.hasOwnProperty.call(m, "seq"))
                    w.uint32(40).uint32(m.seq);
                if (m.line != null && Object.hasOwnProperty.call(m, "line"))
                    w.uint32(50).string(m.line);
                return w;
            };

            /**
             * Encodes the specified TaskStep message, length delimited. Does not implicitly {@link farm.v1.TaskStep.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.TaskStep
             * @static
             * @param {farm.v1.ITaskStep} message TaskStep message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            TaskStep.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a TaskStep message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.TaskStep
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.TaskStep} TaskStep
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            TaskStep.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.TaskStep();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.changeRequestId = r.string();
                            break;
                        }
                    case 2: {
                            m.taskId = r.string();
                            break;
                        }
                    case 3: {
                            m.dispatch = r.uint32();
                            break;
                        }
                    case 4: {
                            m.runId = r.string();
                            break;
                        }
                    case 5: {
                            m.seq = r.uint32();
                            break;
                        }
                    case 6: {
                            m.line = r.string();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a TaskStep message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.TaskStep
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.TaskStep} TaskStep
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            TaskStep.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a TaskStep message.
             * @function verify
             * @memberof farm.v1.TaskStep
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            TaskStep.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    if (!$util.isString(m.changeRequestId))
                        return "changeRequestId: string expected";
                }
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId")) {
                    if (!$util.isString(m.taskId))
                        return "taskId: string expected";
                }
                if (m.dispatch != null && Object.hasOwnProperty.call(m, "dispatch")) {
                    if (!$util.isInteger(m.dispatch))
                        return "dispatch: integer expected";
                }
                if (m.runId != null && Object.hasOwnProperty.call(m, "runId")) {
                    if (!$util.isString(m.runId))
                        return "runId: string expected";
                }
                if (m.seq != null && Object.hasOwnProperty.call(m, "seq")) {
                    if (!$util.isInteger(m.seq))
                        return "seq: integer expected";
                }
                if (m.line != null && Object.hasOwnProperty.call(m, "line")) {
                    if (!$util.isString(m.line))
                        return "line: string expected";
                }
                return null;
            };

            /**
             * Creates a TaskStep message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.TaskStep
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.TaskStep} TaskStep
             */
            TaskStep.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.TaskStep)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.TaskStep: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.TaskStep();
                if (d.changeRequestId != null) {
                    m.changeRequestId = String(d.changeRequestId);
                }
                if (d.taskId != null) {
                    m.taskId = String(d.taskId);
                }
                if (d.dispatch != null) {
                    m.dispatch = d.dispatch >>> 0;
                }
                if (d.runId != null) {
                    m.runId = String(d.runId);
                }
                if (d.seq != null) {
                    m.seq = d.seq >>> 0;
                }
                if (d.line != null) {
                    m.line = String(d.line);
                }
                return m;
            };

            /**
             * Creates a plain object from a TaskStep message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.TaskStep
             * @static
             * @param {farm.v1.TaskStep} m TaskStep
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            TaskStep.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.defaults) {
                    d.changeRequestId = "";
                    d.taskId = "";
                    d.dispatch = 0;
                    d.runId = "";
                    d.seq = 0;
                    d.line = "";
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    d.changeRequestId = m.changeRequestId;
                }
                if (m.taskId != null && Object.hasOwnProperty.call(m, "taskId")) {
                    d.taskId = m.taskId;
                }
                if (m.dispatch != null && Object.hasOwnProperty.call(m, "dispatch")) {
                    d.dispatch = m.dispatch;
                }
                if (m.runId != null && Object.hasOwnProperty.call(m, "runId")) {
                    d.runId = m.runId;
                }
                if (m.seq != null && Object.hasOwnProperty.call(m, "seq")) {
                    d.seq = m.seq;
                }
                if (m.line != null && Object.hasOwnProperty.call(m, "line")) {
                    d.line = m.line;
                }
                return d;
            };

            /**
             * Converts this TaskStep to JSON.
             * @function toJSON
             * @memberof farm.v1.TaskStep
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            TaskStep.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for TaskStep
             * @function getTypeUrl
             * @memberof farm.v1.TaskStep
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            TaskStep.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.TaskStep";
            };

            return TaskStep;
        })();

        v1.PlanItem = (function() {

            /**
             * Properties of a PlanItem.
             * @memberof farm.v1
             * @interface IPlanItem
             * @property {string|null} [itemId] PlanItem itemId
             * @property {string|null} [goal] PlanItem goal
             * @property {farm.v1.TaskKind|null} [kind] PlanItem kind
             * @property {Array.<string>|null} [pathHints] PlanItem pathHints
             * @property {Array.<string>|null} [symbolHints] PlanItem symbolHints
             * @property {Array.<string>|null} [dependsOn] PlanItem dependsOn
             * @property {number|null} [estimatedChangedLines] PlanItem estimatedChangedLines
             */

            /**
             * Constructs a new PlanItem.
             * @memberof farm.v1
             * @classdesc Represents a PlanItem.
             * @implements IPlanItem
             * @constructor
             * @param {farm.v1.IPlanItem=} [p] Properties to set
             */
            function PlanItem(p) {
                this.pathHints = [];
                this.symbolHints = [];
                this.dependsOn = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * PlanItem itemId.
             * @member {string} itemId
             * @memberof farm.v1.PlanItem
             * @instance
             */
            PlanItem.prototype.itemId = "";

            /**
             * PlanItem goal.
             * @member {string} goal
             * @memberof farm.v1.PlanItem
             * @instance
             */
            PlanItem.prototype.goal = "";

            /**
             * PlanItem kind.
             * @member {farm.v1.TaskKind} kind
             * @memberof farm.v1.PlanItem
             * @instance
             */
            PlanItem.prototype.kind = 0;

            /**
             * PlanItem pathHints.
             * @member {Array.<string>} pathHints
             * @memberof farm.v1.PlanItem
             * @instance
             */
            PlanItem.prototype.pathHints = $util.emptyArray;

            /**
             * PlanItem symbolHints.
             * @member {Array.<string>} symbolHints
             * @memberof farm.v1.PlanItem
             * @instance
             */
            PlanItem.prototype.symbolHints = $util.emptyArray;

            /**
             * PlanItem dependsOn.
             * @member {Array.<string>} dependsOn
             * @memberof farm.v1.PlanItem
             * @instance
             */
            PlanItem.prototype.dependsOn = $util.emptyArray;

            /**
             * PlanItem estimatedChangedLines.
             * @member {number} estimatedChangedLines
             * @memberof farm.v1.PlanItem
             * @instance
             */
            PlanItem.prototype.estimatedChangedLines = 0;

            /**
             * Creates a new PlanItem instance using the specified properties.
             * @function create
             * @memberof farm.v1.PlanItem
             * @static
             * @param {farm.v1.IPlanItem=} [properties] Properties to set
             * @returns {farm.v1.PlanItem} PlanItem instance
             */
            PlanItem.create = function create(properties) {
                return new PlanItem(properties);
            };

            /**
             * Encodes the specified PlanItem message. Does not implicitly {@link farm.v1.PlanItem.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.PlanItem
             * @static
             * @param {farm.v1.IPlanItem} m PlanItem message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            PlanItem.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.itemId != null && Object.hasOwnProperty.call(m, "itemId"))
                    w.uint32(10).string(m.itemId);
                if (m.goal != null && Object.hasOwnProperty.call(m, "goal"))
                    w.uint32(18).string(m.goal);
                if (m.kind != null && Object.hasOwnProperty.call(m, "kind"))
                    w.uint32(24).int32(m.kind);
                if (m.pathHints != null && m.pathHints.length) {
                    for (var i = 0; i < m.pathHints.length; ++i)
                        w.uint32(34).string(m.pathHints[i]);
                }
                if (m.symbolHints != null && m.symbolHints.length) {
                    for (var i = 0; i < m.symbolHints.length; ++i)
                        w.uint32(42).string(m.symbolHints[i]);
                }
                if (m.dependsOn != null && m.dependsOn.length) {
                    for (var i = 0; i < m.dependsOn.length; ++i)
                        w.uint32(50).string(m.dependsOn[i]);
                }
                if (m.estimatedChangedLines != null && Object.hasOwnProperty.call(m, "estimatedChangedLines"))
                    w.uint32(56).uint32(m.estimatedChangedLines);
                return w;
            };

            /**
             * Encodes the specified PlanItem message, length delimited. Does not implicitly {@link farm.v1.PlanItem.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.PlanItem
             * @static
             * @param {farm.v1.IPlanItem} message PlanItem message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            PlanItem.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a PlanItem message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.PlanItem
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.PlanItem} PlanItem
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            PlanItem.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.PlanItem();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.itemId = r.string();
                            break;
                        }
                    case 2: {
                            m.goal = r.string();
                            break;
                        }
                    case 3: {
                            m.kind = r.int32();
                            break;
                        }
                    case 4: {
                            if (!(m.pathHints && m.pathHints.length))
                                m.pathHints = [];
                            m.pathHints.push(r.string());
                            break;
                        }
                    case 5: {
                            if (!(m.symbolHints && m.symbolHints.length))
                                m.symbolHints = [];
                            m.symbolHints.push(r.string());
                            break;
                        }
                    case 6: {
                            if (!(m.dependsOn && m.dependsOn.length))
                                m.dependsOn = [];
                            m.dependsOn.push(r.string());
                            break;
                        }
                    case 7: {
                            m.estimatedChangedLines = r.uint32();
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a PlanItem message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.PlanItem
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.PlanItem} PlanItem
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            PlanItem.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a PlanItem message.
             * @function verify
             * @memberof farm.v1.PlanItem
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            PlanItem.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.itemId != null && Object.hasOwnProperty.call(m, "itemId")) {
                    if (!$util.isString(m.itemId))
                        return "itemId: string expected";
                }
                if (m.goal != null && Object.hasOwnProperty.call(m, "goal")) {
                    if (!$util.isString(m.goal))
                        return "goal: string expected";
                }
                if (m.kind != null && Object.hasOwnProperty.call(m, "kind")) {
                    switch (m.kind) {
                    default:
                        return "kind: enum value expected";
                    case 0:
                    case 1:
                    case 2:
                    case 3:
                    case 4:
                    case 5:
                        break;
                    }
                }
                if (m.pathHints != null && Object.hasOwnProperty.call(m, "pathHints")) {
                    if (!Array.isArray(m.pathHints))
                        return "pathHints: array expected";
                    for (var i = 0; i < m.pathHints.length; ++i) {
                        if (!$util.isString(m.pathHints[i]))
                            return "pathHints: string[] expected";
                    }
                }
                if (m.symbolHints != null && Object.hasOwnProperty.call(m, "symbolHints")) {
                    if (!Array.isArray(m.symbolHints))
                        return "symbolHints: array expected";
                    for (var i = 0; i < m.symbolHints.length; ++i) {
                        if (!$util.isString(m.symbolHints[i]))
                            return "symbolHints: string[] expected";
                    }
                }
                if (m.dependsOn != null && Object.hasOwnProperty.call(m, "dependsOn")) {
                    if (!Array.isArray(m.dependsOn))
                        return "dependsOn: array expected";
                    for (var i = 0; i < m.dependsOn.length; ++i) {
                        if (!$util.isString(m.dependsOn[i]))
                            return "dependsOn: string[] expected";
                    }
                }
                if (m.estimatedChangedLines != null && Object.hasOwnProperty.call(m, "estimatedChangedLines")) {
                    if (!$util.isInteger(m.estimatedChangedLines))
                        return "estimatedChangedLines: integer expected";
                }
                return null;
            };

            /**
             * Creates a PlanItem message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.PlanItem
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.PlanItem} PlanItem
             */
            PlanItem.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.PlanItem)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.PlanItem: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.PlanItem();
                if (d.itemId != null) {
                    m.itemId = String(d.itemId);
                }
                if (d.goal != null) {
                    m.goal = String(d.goal);
                }
                switch (d.kind) {
                default:
                    if (typeof d.kind === "number") {
                        m.kind = d.kind;
                        break;
                    }
                    break;
                case "TASK_KIND_UNSPECIFIED":
                case 0:
                    m.kind = 0;
                    break;
                case "FEATURE":
                case 1:
                    m.kind = 1;
                    break;
                case "FIX":
                case 2:
                    m.kind = 2;
                    break;
                case "REFACTOR":
                case 3:
                    m.kind = 3;
                    break;
                case "TEST":
                case 4:
                    m.kind = 4;
                    break;
                case "DOCS":
                case 5:
                    m.kind = 5;
                    break;
                }
                if (d.pathHints) {
                    if (!Array.isArray(d.pathHints))
                        throw TypeError(".farm.v1.PlanItem.pathHints: array expected");
                    m.pathHints = [];
                    for (var i = 0; i < d.pathHints.length; ++i) {
                        m.pathHints[i] = String(d.pathHints[i]);
                    }
                }
                if (d.symbolHints) {
                    if (!Array.isArray(d.symbolHints))
                        throw TypeError(".farm.v1.PlanItem.symbolHints: array expected");
                    m.symbolHints = [];
                    for (var i = 0; i < d.symbolHints.length; ++i) {
                        m.symbolHints[i] = String(d.symbolHints[i]);
                    }
                }
                if (d.dependsOn) {
                    if (!Array.isArray(d.dependsOn))
                        throw TypeError(".farm.v1.PlanItem.dependsOn: array expected");
                    m.dependsOn = [];
                    for (var i = 0; i < d.dependsOn.length; ++i) {
                        m.dependsOn[i] = String(d.dependsOn[i]);
                    }
                }
                if (d.estimatedChangedLines != null) {
                    m.estimatedChangedLines = d.estimatedChangedLines >>> 0;
                }
                return m;
            };

            /**
             * Creates a plain object from a PlanItem message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.PlanItem
             * @static
             * @param {farm.v1.PlanItem} m PlanItem
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            PlanItem.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.pathHints = [];
                    d.symbolHints = [];
                    d.dependsOn = [];
                }
                if (o.defaults) {
                    d.itemId = "";
                    d.goal = "";
                    d.kind = o.enums === String ? "TASK_KIND_UNSPECIFIED" : 0;
                    d.estimatedChangedLines = 0;
                }
                if (m.itemId != null && Object.hasOwnProperty.call(m, "itemId")) {
                    d.itemId = m.itemId;
                }
                if (m.goal != null && Object.hasOwnProperty.call(m, "goal")) {
                    d.goal = m.goal;
                }
                if (m.kind != null && Object.hasOwnProperty.call(m, "kind")) {
                    d.kind = o.enums === String ? $root.farm.v1.TaskKind[m.kind] === undefined ? m.kind : $root.farm.v1.TaskKind[m.kind] : m.kind;
                }
                if (m.pathHints && m.pathHints.length) {
                    d.pathHints = [];
                    for (var j = 0; j < m.pathHints.length; ++j) {
                        d.pathHints[j] = m.pathHints[j];
                    }
                }
                if (m.symbolHints && m.symbolHints.length) {
                    d.symbolHints = [];
                    for (var j = 0; j < m.symbolHints.length; ++j) {
                        d.symbolHints[j] = m.symbolHints[j];
                    }
                }
                if (m.dependsOn && m.dependsOn.length) {
                    d.dependsOn = [];
                    for (var j = 0; j < m.dependsOn.length; ++j) {
                        d.dependsOn[j] = m.dependsOn[j];
                    }
                }
                if (m.estimatedChangedLines != null && Object.hasOwnProperty.call(m, "estimatedChangedLines")) {
                    d.estimatedChangedLines = m.estimatedChangedLines;
                }
                return d;
            };

            /**
             * Converts this PlanItem to JSON.
             * @function toJSON
             * @memberof farm.v1.PlanItem
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            PlanItem.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for PlanItem
             * @function getTypeUrl
             * @memberof farm.v1.PlanItem
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            PlanItem.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.PlanItem";
            };

            return PlanItem;
        })();

        v1.Plan = (function() {

            /**
             * Properties of a Plan.
             * @memberof farm.v1
             * @interface IPlan
             * @property {string|null} [changeRequestId] Plan changeRequestId
             * @property {farm.v1.IRepoRef|null} [repo] Plan repo
             * @property {Array.<farm.v1.IPlanItem>|null} [items] Plan items
             * @property {Array.<string>|null} [notes] Plan notes
             * @property {string|null} [checkCommand] Plan checkCommand
             * @property {farm.v1.IModelUsage|null} [planning] Plan planning
             */

            /**
             * Constructs a new Plan.
             * @memberof farm.v1
             * @classdesc Represents a Plan.
             * @implements IPlan
             * @constructor
             * @param {farm.v1.IPlan=} [p] Properties to set
             */
            function Plan(p) {
                this.items = [];
                this.notes = [];
                if (p)
                    for (var ks = Object.keys(p), i = 0; i < ks.length; ++i)
                        if (p[ks[i]] != null && ks[i] !== "__proto__")
                            this[ks[i]] = p[ks[i]];
            }

            /**
             * Plan changeRequestId.
             * @member {string} changeRequestId
             * @memberof farm.v1.Plan
             * @instance
             */
            Plan.prototype.changeRequestId = "";

            /**
             * Plan repo.
             * @member {farm.v1.IRepoRef|null|undefined} repo
             * @memberof farm.v1.Plan
             * @instance
             */
            Plan.prototype.repo = null;

            /**
             * Plan items.
             * @member {Array.<farm.v1.IPlanItem>} items
             * @memberof farm.v1.Plan
             * @instance
             */
            Plan.prototype.items = $util.emptyArray;

            /**
             * Plan notes.
             * @member {Array.<string>} notes
             * @memberof farm.v1.Plan
             * @instance
             */
            Plan.prototype.notes = $util.emptyArray;

            /**
             * Plan checkCommand.
             * @member {string} checkCommand
             * @memberof farm.v1.Plan
             * @instance
             */
            Plan.prototype.checkCommand = "";

            /**
             * Plan planning.
             * @member {farm.v1.IModelUsage|null|undefined} planning
             * @memberof farm.v1.Plan
             * @instance
             */
            Plan.prototype.planning = null;

            /**
             * Creates a new Plan instance using the specified properties.
             * @function create
             * @memberof farm.v1.Plan
             * @static
             * @param {farm.v1.IPlan=} [properties] Properties to set
             * @returns {farm.v1.Plan} Plan instance
             */
            Plan.create = function create(properties) {
                return new Plan(properties);
            };

            /**
             * Encodes the specified Plan message. Does not implicitly {@link farm.v1.Plan.verify|verify} messages.
             * @function encode
             * @memberof farm.v1.Plan
             * @static
             * @param {farm.v1.IPlan} m Plan message or plain object to encode
             * @param {$protobuf.Writer} [w] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Plan.encode = function encode(m, w, q) {
                if (!w)
                    w = $Writer.create();
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId"))
                    w.uint32(10).string(m.changeRequestId);
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo"))
                    $root.farm.v1.RepoRef.encode(m.repo, w.uint32(18).fork(), q + 1).ldelim();
                if (m.items != null && m.items.length) {
                    for (var i = 0; i < m.items.length; ++i)
                        $root.farm.v1.PlanItem.encode(m.items[i], w.uint32(26).fork(), q + 1).ldelim();
                }
                if (m.notes != null && m.notes.length) {
                    for (var i = 0; i < m.notes.length; ++i)
                        w.uint32(34).string(m.notes[i]);
                }
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand"))
                    w.uint32(42).string(m.checkCommand);
                if (m.planning != null && Object.hasOwnProperty.call(m, "planning"))
                    $root.farm.v1.ModelUsage.encode(m.planning, w.uint32(50).fork(), q + 1).ldelim();
                return w;
            };

            /**
             * Encodes the specified Plan message, length delimited. Does not implicitly {@link farm.v1.Plan.verify|verify} messages.
             * @function encodeDelimited
             * @memberof farm.v1.Plan
             * @static
             * @param {farm.v1.IPlan} message Plan message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Plan.encodeDelimited = function encodeDelimited(message, writer) {
                return this.encode(message, writer && writer.len ? writer.fork() : writer).ldelim();
            };

            /**
             * Decodes a Plan message from the specified reader or buffer.
             * @function decode
             * @memberof farm.v1.Plan
             * @static
             * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
             * @param {number} [l] Message length if known beforehand
             * @returns {farm.v1.Plan} Plan
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Plan.decode = function decode(r, l, e, n) {
                if (!(r instanceof $Reader))
                    r = $Reader.create(r);
                if (n === undefined)
                    n = 0;
                if (n > $Reader.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var c, m;
                if (l === undefined)
                    c = r.len;
                else {
                    c = r.pos + l;
                    if (c > r.len)
                        throw RangeError("index out of range");
                    l = r.len;
                    r.len = c;
                }
                m = new $root.farm.v1.Plan();
                while (r.pos < c) {
                    var t = r.uint32();
                    if (t === e)
                        break;
                    switch (t >>> 3) {
                    case 1: {
                            m.changeRequestId = r.string();
                            break;
                        }
                    case 2: {
                            m.repo = $root.farm.v1.RepoRef.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    case 3: {
                            if (!(m.items && m.items.length))
                                m.items = [];
                            m.items.push($root.farm.v1.PlanItem.decode(r, r.uint32(), undefined, n + 1));
                            break;
                        }
                    case 4: {
                            if (!(m.notes && m.notes.length))
                                m.notes = [];
                            m.notes.push(r.string());
                            break;
                        }
                    case 5: {
                            m.checkCommand = r.string();
                            break;
                        }
                    case 6: {
                            m.planning = $root.farm.v1.ModelUsage.decode(r, r.uint32(), undefined, n + 1);
                            break;
                        }
                    default:
                        r.skipType(t & 7, n);
                        break;
                    }
                }
                if (l !== undefined) {
                    if (r.pos !== c)
                        throw RangeError("index out of range");
                    r.len = l;
                }
                return m;
            };

            /**
             * Decodes a Plan message from the specified reader or buffer, length delimited.
             * @function decodeDelimited
             * @memberof farm.v1.Plan
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @returns {farm.v1.Plan} Plan
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Plan.decodeDelimited = function decodeDelimited(reader) {
                if (!(reader instanceof $Reader))
                    reader = new $Reader(reader);
                return this.decode(reader, reader.uint32());
            };

            /**
             * Verifies a Plan message.
             * @function verify
             * @memberof farm.v1.Plan
             * @static
             * @param {Object.<string,*>} m Plain object to verify
             * @returns {string|null} `null` if valid, otherwise the reason why it is not
             */
            Plan.verify = function verify(m, n) {
                if (typeof m !== "object" || m === null)
                    return "object expected";
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    return "maximum nesting depth exceeded";
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    if (!$util.isString(m.changeRequestId))
                        return "changeRequestId: string expected";
                }
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo")) {
                    {
                        var e = $root.farm.v1.RepoRef.verify(m.repo, n + 1);
                        if (e)
                            return "repo." + e;
                    }
                }
                if (m.items != null && Object.hasOwnProperty.call(m, "items")) {
                    if (!Array.isArray(m.items))
                        return "items: array expected";
                    for (var i = 0; i < m.items.length; ++i) {
                        {
                            var e = $root.farm.v1.PlanItem.verify(m.items[i], n + 1);
                            if (e)
                                return "items." + e;
                        }
                    }
                }
                if (m.notes != null && Object.hasOwnProperty.call(m, "notes")) {
                    if (!Array.isArray(m.notes))
                        return "notes: array expected";
                    for (var i = 0; i < m.notes.length; ++i) {
                        if (!$util.isString(m.notes[i]))
                            return "notes: string[] expected";
                    }
                }
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand")) {
                    if (!$util.isString(m.checkCommand))
                        return "checkCommand: string expected";
                }
                if (m.planning != null && Object.hasOwnProperty.call(m, "planning")) {
                    {
                        var e = $root.farm.v1.ModelUsage.verify(m.planning, n + 1);
                        if (e)
                            return "planning." + e;
                    }
                }
                return null;
            };

            /**
             * Creates a Plan message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof farm.v1.Plan
             * @static
             * @param {Object.<string,*>} d Plain object
             * @returns {farm.v1.Plan} Plan
             */
            Plan.fromObject = function fromObject(d, n) {
                if (d instanceof $root.farm.v1.Plan)
                    return d;
                if (!$util.isObject(d))
                    throw TypeError(".farm.v1.Plan: object expected");
                if (n === undefined)
                    n = 0;
                if (n > $util.recursionLimit)
                    throw Error("maximum nesting depth exceeded");
                var m = new $root.farm.v1.Plan();
                if (d.changeRequestId != null) {
                    m.changeRequestId = String(d.changeRequestId);
                }
                if (d.repo != null) {
                    if (!$util.isObject(d.repo))
                        throw TypeError(".farm.v1.Plan.repo: object expected");
                    m.repo = $root.farm.v1.RepoRef.fromObject(d.repo, n + 1);
                }
                if (d.items) {
                    if (!Array.isArray(d.items))
                        throw TypeError(".farm.v1.Plan.items: array expected");
                    m.items = [];
                    for (var i = 0; i < d.items.length; ++i) {
                        if (!$util.isObject(d.items[i]))
                            throw TypeError(".farm.v1.Plan.items: object expected");
                        m.items[i] = $root.farm.v1.PlanItem.fromObject(d.items[i], n + 1);
                    }
                }
                if (d.notes) {
                    if (!Array.isArray(d.notes))
                        throw TypeError(".farm.v1.Plan.notes: array expected");
                    m.notes = [];
                    for (var i = 0; i < d.notes.length; ++i) {
                        m.notes[i] = String(d.notes[i]);
                    }
                }
                if (d.checkCommand != null) {
                    m.checkCommand = String(d.checkCommand);
                }
                if (d.planning != null) {
                    if (!$util.isObject(d.planning))
                        throw TypeError(".farm.v1.Plan.planning: object expected");
                    m.planning = $root.farm.v1.ModelUsage.fromObject(d.planning, n + 1);
                }
                return m;
            };

            /**
             * Creates a plain object from a Plan message. Also converts values to other types if specified.
             * @function toObject
             * @memberof farm.v1.Plan
             * @static
             * @param {farm.v1.Plan} m Plan
             * @param {$protobuf.IConversionOptions} [o] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Plan.toObject = function toObject(m, o, q) {
                if (!o)
                    o = {};
                if (q === undefined)
                    q = 0;
                if (q > $util.recursionLimit)
                    throw Error("max depth exceeded");
                var d = {};
                if (o.arrays || o.defaults) {
                    d.items = [];
                    d.notes = [];
                }
                if (o.defaults) {
                    d.changeRequestId = "";
                    d.repo = null;
                    d.checkCommand = "";
                    d.planning = null;
                }
                if (m.changeRequestId != null && Object.hasOwnProperty.call(m, "changeRequestId")) {
                    d.changeRequestId = m.changeRequestId;
                }
                if (m.repo != null && Object.hasOwnProperty.call(m, "repo")) {
                    d.repo = $root.farm.v1.RepoRef.toObject(m.repo, o, q + 1);
                }
                if (m.items && m.items.length) {
                    d.items = [];
                    for (var j = 0; j < m.items.length; ++j) {
                        d.items[j] = $root.farm.v1.PlanItem.toObject(m.items[j], o, q + 1);
                    }
                }
                if (m.notes && m.notes.length) {
                    d.notes = [];
                    for (var j = 0; j < m.notes.length; ++j) {
                        d.notes[j] = m.notes[j];
                    }
                }
                if (m.checkCommand != null && Object.hasOwnProperty.call(m, "checkCommand")) {
                    d.checkCommand = m.checkCommand;
                }
                if (m.planning != null && Object.hasOwnProperty.call(m, "planning")) {
                    d.planning = $root.farm.v1.ModelUsage.toObject(m.planning, o, q + 1);
                }
                return d;
            };

            /**
             * Converts this Plan to JSON.
             * @function toJSON
             * @memberof farm.v1.Plan
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Plan.prototype.toJSON = function toJSON() {
                return this.constructor.toObject(this, $protobuf.util.toJSONOptions);
            };

            /**
             * Gets the default type url for Plan
             * @function getTypeUrl
             * @memberof farm.v1.Plan
             * @static
             * @param {string} [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns {string} The default type url
             */
            Plan.getTypeUrl = function getTypeUrl(typeUrlPrefix) {
                if (typeUrlPrefix === undefined) {
                    typeUrlPrefix = "type.googleapis.com";
                }
                return typeUrlPrefix + "/farm.v1.Plan";
            };

            return Plan;
        })();

        return v1;
    })();

    return farm;
})();

module.exports = $root;

import * as $protobuf from "protobufjs";
import Long = require("long");
/** Namespace farm. */
export namespace farm {

    /** Namespace v1. */
    namespace v1 {

        /** Properties of a ChangeRequest. */
        interface IChangeRequest {

            /** ChangeRequest changeRequestId */
            changeRequestId?: (string|null);

            /** ChangeRequest repo */
            repo?: (farm.v1.IRepoRef|null);

            /** ChangeRequest title */
            title?: (string|null);

            /** ChangeRequest description */
            description?: (string|null);

            /** ChangeRequest requestedBy */
            requestedBy?: (string|null);

            /** ChangeRequest createdAtMs */
            createdAtMs?: (number|null);

            /** ChangeRequest checkCommand */
            checkCommand?: (string|null);

            /** ChangeRequest integrationBranch */
            integrationBranch?: (string|null);

            /** ChangeRequest requireApproval */
            requireApproval?: (boolean|null);
        }

        /** Represents a ChangeRequest. */
        class ChangeRequest implements IChangeRequest {

            /**
             * Constructs a new ChangeRequest.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IChangeRequest);

            /** ChangeRequest changeRequestId. */
            public changeRequestId: string;

            /** ChangeRequest repo. */
            public repo?: (farm.v1.IRepoRef|null);

            /** ChangeRequest title. */
            public title: string;

            /** ChangeRequest description. */
            public description: string;

            /** ChangeRequest requestedBy. */
            public requestedBy: string;

            /** ChangeRequest createdAtMs. */
            public createdAtMs: number;

            /** ChangeRequest checkCommand. */
            public checkCommand: string;

            /** ChangeRequest integrationBranch. */
            public integrationBranch: string;

            /** ChangeRequest requireApproval. */
            public requireApproval: boolean;

            /**
             * Creates a new ChangeRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ChangeRequest instance
             */
            public static create(properties?: farm.v1.IChangeRequest): farm.v1.ChangeRequest;

            /**
             * Encodes the specified ChangeRequest message. Does not implicitly {@link farm.v1.ChangeRequest.verify|verify} messages.
             * @param m ChangeRequest message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IChangeRequest, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ChangeRequest message, length delimited. Does not implicitly {@link farm.v1.ChangeRequest.verify|verify} messages.
             * @param message ChangeRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IChangeRequest, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ChangeRequest message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns ChangeRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.ChangeRequest;

            /**
             * Decodes a ChangeRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns ChangeRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.ChangeRequest;

            /**
             * Verifies a ChangeRequest message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a ChangeRequest message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns ChangeRequest
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.ChangeRequest;

            /**
             * Creates a plain object from a ChangeRequest message. Also converts values to other types if specified.
             * @param m ChangeRequest
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.ChangeRequest, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ChangeRequest to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for ChangeRequest
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Phase enum. */
        enum Phase {
            PHASE_UNSPECIFIED = 0,
            RECEIVED = 1,
            PLANNING = 2,
            CODING = 3,
            BUILD = 4,
            DONE = 5,
            FAILED = 6,
            CANCELLED = 7,
            AWAITING_APPROVAL = 8
        }

        /** TaskKind enum. */
        enum TaskKind {
            TASK_KIND_UNSPECIFIED = 0,
            FEATURE = 1,
            FIX = 2,
            REFACTOR = 3,
            TEST = 4,
            DOCS = 5
        }

        /** CommitStatus enum. */
        enum CommitStatus {
            COMMIT_STATUS_UNSPECIFIED = 0,
            SUCCESS = 1,
            SOFT_FAIL = 2,
            HARD_FAIL = 3
        }

        /** TaskState enum. */
        enum TaskState {
            TASK_STATE_UNSPECIFIED = 0,
            TASK_PENDING = 1,
            TASK_DISPATCHED = 2,
            TASK_SUCCESS = 3,
            TASK_SOFT_FAIL = 4,
            TASK_HARD_FAIL = 5,
            TASK_CANCELLED = 6
        }

        /** BuildStatus enum. */
        enum BuildStatus {
            BUILD_STATUS_UNSPECIFIED = 0,
            BUILD_PASSED = 1,
            BUILD_FAILED = 2,
            MERGE_CONFLICT = 3
        }

        /** Properties of a RepoRef. */
        interface IRepoRef {

            /** RepoRef url */
            url?: (string|null);

            /** RepoRef baseRef */
            baseRef?: (string|null);

            /** RepoRef baseCommit */
            baseCommit?: (string|null);
        }

        /** Represents a RepoRef. */
        class RepoRef implements IRepoRef {

            /**
             * Constructs a new RepoRef.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IRepoRef);

            /** RepoRef url. */
            public url: string;

            /** RepoRef baseRef. */
            public baseRef: string;

            /** RepoRef baseCommit. */
            public baseCommit: string;

            /**
             * Creates a new RepoRef instance using the specified properties.
             * @param [properties] Properties to set
             * @returns RepoRef instance
             */
            public static create(properties?: farm.v1.IRepoRef): farm.v1.RepoRef;

            /**
             * Encodes the specified RepoRef message. Does not implicitly {@link farm.v1.RepoRef.verify|verify} messages.
             * @param m RepoRef message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IRepoRef, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified RepoRef message, length delimited. Does not implicitly {@link farm.v1.RepoRef.verify|verify} messages.
             * @param message RepoRef message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IRepoRef, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a RepoRef message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns RepoRef
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.RepoRef;

            /**
             * Decodes a RepoRef message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns RepoRef
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.RepoRef;

            /**
             * Verifies a RepoRef message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a RepoRef message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns RepoRef
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.RepoRef;

            /**
             * Creates a plain object from a RepoRef message. Also converts values to other types if specified.
             * @param m RepoRef
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.RepoRef, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this RepoRef to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for RepoRef
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a ModelUsage. */
        interface IModelUsage {

            /** ModelUsage calls */
            calls?: (number|null);

            /** ModelUsage promptTokens */
            promptTokens?: (number|null);

            /** ModelUsage completionTokens */
            completionTokens?: (number|null);

            /** ModelUsage totalTokens */
            totalTokens?: (number|null);

            /** ModelUsage costUsd */
            costUsd?: (number|null);

            /** ModelUsage model */
            model?: (string|null);

            /** ModelUsage priced */
            priced?: (boolean|null);
        }

        /** Represents a ModelUsage. */
        class ModelUsage implements IModelUsage {

            /**
             * Constructs a new ModelUsage.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IModelUsage);

            /** ModelUsage calls. */
            public calls: number;

            /** ModelUsage promptTokens. */
            public promptTokens: number;

            /** ModelUsage completionTokens. */
            public completionTokens: number;

            /** ModelUsage totalTokens. */
            public totalTokens: number;

            /** ModelUsage costUsd. */
            public costUsd: number;

            /** ModelUsage model. */
            public model: string;

            /** ModelUsage priced. */
            public priced: boolean;

            /**
             * Creates a new ModelUsage instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ModelUsage instance
             */
            public static create(properties?: farm.v1.IModelUsage): farm.v1.ModelUsage;

            /**
             * Encodes the specified ModelUsage message. Does not implicitly {@link farm.v1.ModelUsage.verify|verify} messages.
             * @param m ModelUsage message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IModelUsage, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ModelUsage message, length delimited. Does not implicitly {@link farm.v1.ModelUsage.verify|verify} messages.
             * @param message ModelUsage message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IModelUsage, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ModelUsage message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns ModelUsage
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.ModelUsage;

            /**
             * Decodes a ModelUsage message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns ModelUsage
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.ModelUsage;

            /**
             * Verifies a ModelUsage message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a ModelUsage message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns ModelUsage
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.ModelUsage;

            /**
             * Creates a plain object from a ModelUsage message. Also converts values to other types if specified.
             * @param m ModelUsage
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.ModelUsage, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ModelUsage to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for ModelUsage
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a PhaseTransition. */
        interface IPhaseTransition {

            /** PhaseTransition changeRequestId */
            changeRequestId?: (string|null);

            /** PhaseTransition fromPhase */
            fromPhase?: (farm.v1.Phase|null);

            /** PhaseTransition toPhase */
            toPhase?: (farm.v1.Phase|null);

            /** PhaseTransition sequence */
            sequence?: (number|null);

            /** PhaseTransition reason */
            reason?: (string|null);

            /** PhaseTransition atMs */
            atMs?: (number|null);

            /** PhaseTransition taskId */
            taskId?: (string|null);

            /** PhaseTransition taskStatus */
            taskStatus?: (farm.v1.CommitStatus|null);

            /** PhaseTransition branchName */
            branchName?: (string|null);

            /** PhaseTransition taskState */
            taskState?: (farm.v1.TaskState|null);
        }

        /** Represents a PhaseTransition. */
        class PhaseTransition implements IPhaseTransition {

            /**
             * Constructs a new PhaseTransition.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IPhaseTransition);

            /** PhaseTransition changeRequestId. */
            public changeRequestId: string;

            /** PhaseTransition fromPhase. */
            public fromPhase: farm.v1.Phase;

            /** PhaseTransition toPhase. */
            public toPhase: farm.v1.Phase;

            /** PhaseTransition sequence. */
            public sequence: number;

            /** PhaseTransition reason. */
            public reason: string;

            /** PhaseTransition atMs. */
            public atMs: number;

            /** PhaseTransition taskId. */
            public taskId: string;

            /** PhaseTransition taskStatus. */
            public taskStatus: farm.v1.CommitStatus;

            /** PhaseTransition branchName. */
            public branchName: string;

            /** PhaseTransition taskState. */
            public taskState: farm.v1.TaskState;

            /**
             * Creates a new PhaseTransition instance using the specified properties.
             * @param [properties] Properties to set
             * @returns PhaseTransition instance
             */
            public static create(properties?: farm.v1.IPhaseTransition): farm.v1.PhaseTransition;

            /**
             * Encodes the specified PhaseTransition message. Does not implicitly {@link farm.v1.PhaseTransition.verify|verify} messages.
             * @param m PhaseTransition message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IPhaseTransition, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified PhaseTransition message, length delimited. Does not implicitly {@link farm.v1.PhaseTransition.verify|verify} messages.
             * @param message PhaseTransition message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IPhaseTransition, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a PhaseTransition message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns PhaseTransition
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.PhaseTransition;

            /**
             * Decodes a PhaseTransition message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns PhaseTransition
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.PhaseTransition;

            /**
             * Verifies a PhaseTransition message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a PhaseTransition message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns PhaseTransition
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.PhaseTransition;

            /**
             * Creates a plain object from a PhaseTransition message. Also converts values to other types if specified.
             * @param m PhaseTransition
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.PhaseTransition, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this PhaseTransition to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for PhaseTransition
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a BuildRequest. */
        interface IBuildRequest {

            /** BuildRequest changeRequestId */
            changeRequestId?: (string|null);

            /** BuildRequest repo */
            repo?: (farm.v1.IRepoRef|null);

            /** BuildRequest branches */
            branches?: (string[]|null);

            /** BuildRequest checkCommand */
            checkCommand?: (string|null);

            /** BuildRequest commits */
            commits?: (string[]|null);

            /** BuildRequest integrationBranch */
            integrationBranch?: (string|null);

            /** BuildRequest verifications */
            verifications?: (farm.v1.IVerification[]|null);

            /** BuildRequest taskIds */
            taskIds?: (string[]|null);
        }

        /** Represents a BuildRequest. */
        class BuildRequest implements IBuildRequest {

            /**
             * Constructs a new BuildRequest.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IBuildRequest);

            /** BuildRequest changeRequestId. */
            public changeRequestId: string;

            /** BuildRequest repo. */
            public repo?: (farm.v1.IRepoRef|null);

            /** BuildRequest branches. */
            public branches: string[];

            /** BuildRequest checkCommand. */
            public checkCommand: string;

            /** BuildRequest commits. */
            public commits: string[];

            /** BuildRequest integrationBranch. */
            public integrationBranch: string;

            /** BuildRequest verifications. */
            public verifications: farm.v1.IVerification[];

            /** BuildRequest taskIds. */
            public taskIds: string[];

            /**
             * Creates a new BuildRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns BuildRequest instance
             */
            public static create(properties?: farm.v1.IBuildRequest): farm.v1.BuildRequest;

            /**
             * Encodes the specified BuildRequest message. Does not implicitly {@link farm.v1.BuildRequest.verify|verify} messages.
             * @param m BuildRequest message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IBuildRequest, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified BuildRequest message, length delimited. Does not implicitly {@link farm.v1.BuildRequest.verify|verify} messages.
             * @param message BuildRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IBuildRequest, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a BuildRequest message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns BuildRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.BuildRequest;

            /**
             * Decodes a BuildRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns BuildRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.BuildRequest;

            /**
             * Verifies a BuildRequest message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a BuildRequest message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns BuildRequest
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.BuildRequest;

            /**
             * Creates a plain object from a BuildRequest message. Also converts values to other types if specified.
             * @param m BuildRequest
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.BuildRequest, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this BuildRequest to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for BuildRequest
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a BuildResult. */
        interface IBuildResult {

            /** BuildResult changeRequestId */
            changeRequestId?: (string|null);

            /** BuildResult status */
            status?: (farm.v1.BuildStatus|null);

            /** BuildResult integrationBranch */
            integrationBranch?: (string|null);

            /** BuildResult commitSha */
            commitSha?: (string|null);

            /** BuildResult conflictingPaths */
            conflictingPaths?: (string[]|null);

            /** BuildResult notes */
            notes?: (string[]|null);

            /** BuildResult diff */
            diff?: (string|null);

            /** BuildResult diffTruncated */
            diffTruncated?: (boolean|null);
        }

        /** Represents a BuildResult. */
        class BuildResult implements IBuildResult {

            /**
             * Constructs a new BuildResult.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IBuildResult);

            /** BuildResult changeRequestId. */
            public changeRequestId: string;

            /** BuildResult status. */
            public status: farm.v1.BuildStatus;

            /** BuildResult integrationBranch. */
            public integrationBranch: string;

            /** BuildResult commitSha. */
            public commitSha: string;

            /** BuildResult conflictingPaths. */
            public conflictingPaths: string[];

            /** BuildResult notes. */
            public notes: string[];

            /** BuildResult diff. */
            public diff: string;

            /** BuildResult diffTruncated. */
            public diffTruncated: boolean;

            /**
             * Creates a new BuildResult instance using the specified properties.
             * @param [properties] Properties to set
             * @returns BuildResult instance
             */
            public static create(properties?: farm.v1.IBuildResult): farm.v1.BuildResult;

            /**
             * Encodes the specified BuildResult message. Does not implicitly {@link farm.v1.BuildResult.verify|verify} messages.
             * @param m BuildResult message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IBuildResult, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified BuildResult message, length delimited. Does not implicitly {@link farm.v1.BuildResult.verify|verify} messages.
             * @param message BuildResult message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IBuildResult, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a BuildResult message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns BuildResult
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.BuildResult;

            /**
             * Decodes a BuildResult message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns BuildResult
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.BuildResult;

            /**
             * Verifies a BuildResult message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a BuildResult message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns BuildResult
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.BuildResult;

            /**
             * Creates a plain object from a BuildResult message. Also converts values to other types if specified.
             * @param m BuildResult
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.BuildResult, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this BuildResult to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for BuildResult
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** ControlAction enum. */
        enum ControlAction {
            CONTROL_ACTION_UNSPECIFIED = 0,
            CANCEL = 1,
            APPROVE = 2,
            REJECT = 3
        }

        /** Properties of a PlanEdit. */
        interface IPlanEdit {

            /** PlanEdit removeTasks */
            removeTasks?: (string[]|null);

            /** PlanEdit goals */
            goals?: ({ [k: string]: string }|null);

            /** PlanEdit parallelism */
            parallelism?: (number|null);
        }

        /** Represents a PlanEdit. */
        class PlanEdit implements IPlanEdit {

            /**
             * Constructs a new PlanEdit.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IPlanEdit);

            /** PlanEdit removeTasks. */
            public removeTasks: string[];

            /** PlanEdit goals. */
            public goals: { [k: string]: string };

            /** PlanEdit parallelism. */
            public parallelism: number;

            /**
             * Creates a new PlanEdit instance using the specified properties.
             * @param [properties] Properties to set
             * @returns PlanEdit instance
             */
            public static create(properties?: farm.v1.IPlanEdit): farm.v1.PlanEdit;

            /**
             * Encodes the specified PlanEdit message. Does not implicitly {@link farm.v1.PlanEdit.verify|verify} messages.
             * @param m PlanEdit message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IPlanEdit, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified PlanEdit message, length delimited. Does not implicitly {@link farm.v1.PlanEdit.verify|verify} messages.
             * @param message PlanEdit message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IPlanEdit, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a PlanEdit message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns PlanEdit
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.PlanEdit;

            /**
             * Decodes a PlanEdit message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns PlanEdit
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.PlanEdit;

            /**
             * Verifies a PlanEdit message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a PlanEdit message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns PlanEdit
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.PlanEdit;

            /**
             * Creates a plain object from a PlanEdit message. Also converts values to other types if specified.
             * @param m PlanEdit
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.PlanEdit, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this PlanEdit to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for PlanEdit
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a ControlCommand. */
        interface IControlCommand {

            /** ControlCommand changeRequestId */
            changeRequestId?: (string|null);

            /** ControlCommand action */
            action?: (farm.v1.ControlAction|null);

            /** ControlCommand reason */
            reason?: (string|null);

            /** ControlCommand requestedBy */
            requestedBy?: (string|null);

            /** ControlCommand planEdit */
            planEdit?: (farm.v1.IPlanEdit|null);

            /** ControlCommand decided */
            decided?: (boolean|null);
        }

        /** Represents a ControlCommand. */
        class ControlCommand implements IControlCommand {

            /**
             * Constructs a new ControlCommand.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IControlCommand);

            /** ControlCommand changeRequestId. */
            public changeRequestId: string;

            /** ControlCommand action. */
            public action: farm.v1.ControlAction;

            /** ControlCommand reason. */
            public reason: string;

            /** ControlCommand requestedBy. */
            public requestedBy: string;

            /** ControlCommand planEdit. */
            public planEdit?: (farm.v1.IPlanEdit|null);

            /** ControlCommand decided. */
            public decided: boolean;

            /**
             * Creates a new ControlCommand instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ControlCommand instance
             */
            public static create(properties?: farm.v1.IControlCommand): farm.v1.ControlCommand;

            /**
             * Encodes the specified ControlCommand message. Does not implicitly {@link farm.v1.ControlCommand.verify|verify} messages.
             * @param m ControlCommand message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IControlCommand, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ControlCommand message, length delimited. Does not implicitly {@link farm.v1.ControlCommand.verify|verify} messages.
             * @param message ControlCommand message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IControlCommand, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ControlCommand message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns ControlCommand
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.ControlCommand;

            /**
             * Decodes a ControlCommand message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns ControlCommand
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.ControlCommand;

            /**
             * Verifies a ControlCommand message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a ControlCommand message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns ControlCommand
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.ControlCommand;

            /**
             * Creates a plain object from a ControlCommand message. Also converts values to other types if specified.
             * @param m ControlCommand
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.ControlCommand, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ControlCommand to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for ControlCommand
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a CodingTask. */
        interface ICodingTask {

            /** CodingTask id */
            id?: (string|null);

            /** CodingTask goal */
            goal?: (string|null);

            /** CodingTask kind */
            kind?: (farm.v1.TaskKind|null);

            /** CodingTask path */
            path?: (string|null);

            /** CodingTask blobIds */
            blobIds?: (string[]|null);

            /** CodingTask changeRequestId */
            changeRequestId?: (string|null);

            /** CodingTask repo */
            repo?: (farm.v1.IRepoRef|null);

            /** CodingTask dependsOn */
            dependsOn?: (string[]|null);

            /** CodingTask symbols */
            symbols?: (string[]|null);

            /** CodingTask checkCommand */
            checkCommand?: (string|null);

            /** CodingTask maxRetries */
            maxRetries?: (number|null);

            /** CodingTask priorNotes */
            priorNotes?: (string[]|null);

            /** CodingTask dispatch */
            dispatch?: (number|null);

            /** CodingTask contextBudgetTokens */
            contextBudgetTokens?: (number|null);

            /** CodingTask strategy */
            strategy?: (farm.v1.AgentStrategy|null);

            /** CodingTask lessons */
            lessons?: (farm.v1.ILesson[]|null);

            /** CodingTask reservedLeases */
            reservedLeases?: (farm.v1.ILeaseRef[]|null);

            /** CodingTask estimatedChangedLines */
            estimatedChangedLines?: (number|null);
        }

        /** Represents a CodingTask. */
        class CodingTask implements ICodingTask {

            /**
             * Constructs a new CodingTask.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.ICodingTask);

            /** CodingTask id. */
            public id: string;

            /** CodingTask goal. */
            public goal: string;

            /** CodingTask kind. */
            public kind: farm.v1.TaskKind;

            /** CodingTask path. */
            public path: string;

            /** CodingTask blobIds. */
            public blobIds: string[];

            /** CodingTask changeRequestId. */
            public changeRequestId: string;

            /** CodingTask repo. */
            public repo?: (farm.v1.IRepoRef|null);

            /** CodingTask dependsOn. */
            public dependsOn: string[];

            /** CodingTask symbols. */
            public symbols: string[];

            /** CodingTask checkCommand. */
            public checkCommand: string;

            /** CodingTask maxRetries. */
            public maxRetries: number;

            /** CodingTask priorNotes. */
            public priorNotes: string[];

            /** CodingTask dispatch. */
            public dispatch: number;

            /** CodingTask contextBudgetTokens. */
            public contextBudgetTokens: number;

            /** CodingTask strategy. */
            public strategy: farm.v1.AgentStrategy;

            /** CodingTask lessons. */
            public lessons: farm.v1.ILesson[];

            /** CodingTask reservedLeases. */
            public reservedLeases: farm.v1.ILeaseRef[];

            /** CodingTask estimatedChangedLines. */
            public estimatedChangedLines: number;

            /**
             * Creates a new CodingTask instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CodingTask instance
             */
            public static create(properties?: farm.v1.ICodingTask): farm.v1.CodingTask;

            /**
             * Encodes the specified CodingTask message. Does not implicitly {@link farm.v1.CodingTask.verify|verify} messages.
             * @param m CodingTask message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.ICodingTask, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CodingTask message, length delimited. Does not implicitly {@link farm.v1.CodingTask.verify|verify} messages.
             * @param message CodingTask message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.ICodingTask, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CodingTask message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns CodingTask
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.CodingTask;

            /**
             * Decodes a CodingTask message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns CodingTask
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.CodingTask;

            /**
             * Verifies a CodingTask message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a CodingTask message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns CodingTask
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.CodingTask;

            /**
             * Creates a plain object from a CodingTask message. Also converts values to other types if specified.
             * @param m CodingTask
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.CodingTask, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CodingTask to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for CodingTask
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a LeaseRef. */
        interface ILeaseRef {

            /** LeaseRef id */
            id?: (string|null);

            /** LeaseRef fencingToken */
            fencingToken?: (string|null);

            /** LeaseRef symbol */
            symbol?: (string|null);
        }

        /** Represents a LeaseRef. */
        class LeaseRef implements ILeaseRef {

            /**
             * Constructs a new LeaseRef.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.ILeaseRef);

            /** LeaseRef id. */
            public id: string;

            /** LeaseRef fencingToken. */
            public fencingToken: string;

            /** LeaseRef symbol. */
            public symbol: string;

            /**
             * Creates a new LeaseRef instance using the specified properties.
             * @param [properties] Properties to set
             * @returns LeaseRef instance
             */
            public static create(properties?: farm.v1.ILeaseRef): farm.v1.LeaseRef;

            /**
             * Encodes the specified LeaseRef message. Does not implicitly {@link farm.v1.LeaseRef.verify|verify} messages.
             * @param m LeaseRef message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.ILeaseRef, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified LeaseRef message, length delimited. Does not implicitly {@link farm.v1.LeaseRef.verify|verify} messages.
             * @param message LeaseRef message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.ILeaseRef, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a LeaseRef message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns LeaseRef
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.LeaseRef;

            /**
             * Decodes a LeaseRef message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns LeaseRef
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.LeaseRef;

            /**
             * Verifies a LeaseRef message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a LeaseRef message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns LeaseRef
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.LeaseRef;

            /**
             * Creates a plain object from a LeaseRef message. Also converts values to other types if specified.
             * @param m LeaseRef
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.LeaseRef, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this LeaseRef to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for LeaseRef
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** AgentStrategy enum. */
        enum AgentStrategy {
            AGENT_STRATEGY_UNSPECIFIED = 0,
            TOOLS = 1,
            DIFF = 2
        }

        /** Properties of a Lesson. */
        interface ILesson {

            /** Lesson repoUrl */
            repoUrl?: (string|null);

            /** Lesson goal */
            goal?: (string|null);

            /** Lesson files */
            files?: (string[]|null);

            /** Lesson firstFailure */
            firstFailure?: (string|null);

            /** Lesson fix */
            fix?: (string|null);

            /** Lesson taskId */
            taskId?: (string|null);
        }

        /** Represents a Lesson. */
        class Lesson implements ILesson {

            /**
             * Constructs a new Lesson.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.ILesson);

            /** Lesson repoUrl. */
            public repoUrl: string;

            /** Lesson goal. */
            public goal: string;

            /** Lesson files. */
            public files: string[];

            /** Lesson firstFailure. */
            public firstFailure: string;

            /** Lesson fix. */
            public fix: string;

            /** Lesson taskId. */
            public taskId: string;

            /**
             * Creates a new Lesson instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Lesson instance
             */
            public static create(properties?: farm.v1.ILesson): farm.v1.Lesson;

            /**
             * Encodes the specified Lesson message. Does not implicitly {@link farm.v1.Lesson.verify|verify} messages.
             * @param m Lesson message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.ILesson, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Lesson message, length delimited. Does not implicitly {@link farm.v1.Lesson.verify|verify} messages.
             * @param message Lesson message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.ILesson, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Lesson message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns Lesson
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.Lesson;

            /**
             * Decodes a Lesson message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns Lesson
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.Lesson;

            /**
             * Verifies a Lesson message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a Lesson message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns Lesson
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.Lesson;

            /**
             * Creates a plain object from a Lesson message. Also converts values to other types if specified.
             * @param m Lesson
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.Lesson, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Lesson to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for Lesson
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a ReviewVerdict. */
        interface IReviewVerdict {

            /** ReviewVerdict approved */
            approved?: (boolean|null);

            /** ReviewVerdict objections */
            objections?: (string[]|null);

            /** ReviewVerdict round */
            round?: (number|null);

            /** ReviewVerdict findings */
            findings?: (farm.v1.IReviewObjection[]|null);

            /** ReviewVerdict confidence */
            confidence?: (number|null);

            /** ReviewVerdict belowConfidence */
            belowConfidence?: (boolean|null);

            /** ReviewVerdict acceptedUnverified */
            acceptedUnverified?: (boolean|null);
        }

        /** Represents a ReviewVerdict. */
        class ReviewVerdict implements IReviewVerdict {

            /**
             * Constructs a new ReviewVerdict.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IReviewVerdict);

            /** ReviewVerdict approved. */
            public approved: boolean;

            /** ReviewVerdict objections. */
            public objections: string[];

            /** ReviewVerdict round. */
            public round: number;

            /** ReviewVerdict findings. */
            public findings: farm.v1.IReviewObjection[];

            /** ReviewVerdict confidence. */
            public confidence: number;

            /** ReviewVerdict belowConfidence. */
            public belowConfidence: boolean;

            /** ReviewVerdict acceptedUnverified. */
            public acceptedUnverified: boolean;

            /**
             * Creates a new ReviewVerdict instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReviewVerdict instance
             */
            public static create(properties?: farm.v1.IReviewVerdict): farm.v1.ReviewVerdict;

            /**
             * Encodes the specified ReviewVerdict message. Does not implicitly {@link farm.v1.ReviewVerdict.verify|verify} messages.
             * @param m ReviewVerdict message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IReviewVerdict, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReviewVerdict message, length delimited. Does not implicitly {@link farm.v1.ReviewVerdict.verify|verify} messages.
             * @param message ReviewVerdict message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IReviewVerdict, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReviewVerdict message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns ReviewVerdict
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.ReviewVerdict;

            /**
             * Decodes a ReviewVerdict message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns ReviewVerdict
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.ReviewVerdict;

            /**
             * Verifies a ReviewVerdict message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a ReviewVerdict message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns ReviewVerdict
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.ReviewVerdict;

            /**
             * Creates a plain object from a ReviewVerdict message. Also converts values to other types if specified.
             * @param m ReviewVerdict
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.ReviewVerdict, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReviewVerdict to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for ReviewVerdict
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a ReviewObjection. */
        interface IReviewObjection {

            /** ReviewObjection file */
            file?: (string|null);

            /** ReviewObjection line */
            line?: (number|null);

            /** ReviewObjection text */
            text?: (string|null);
        }

        /** Represents a ReviewObjection. */
        class ReviewObjection implements IReviewObjection {

            /**
             * Constructs a new ReviewObjection.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IReviewObjection);

            /** ReviewObjection file. */
            public file: string;

            /** ReviewObjection line. */
            public line: number;

            /** ReviewObjection text. */
            public text: string;

            /**
             * Creates a new ReviewObjection instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReviewObjection instance
             */
            public static create(properties?: farm.v1.IReviewObjection): farm.v1.ReviewObjection;

            /**
             * Encodes the specified ReviewObjection message. Does not implicitly {@link farm.v1.ReviewObjection.verify|verify} messages.
             * @param m ReviewObjection message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IReviewObjection, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReviewObjection message, length delimited. Does not implicitly {@link farm.v1.ReviewObjection.verify|verify} messages.
             * @param message ReviewObjection message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IReviewObjection, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReviewObjection message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns ReviewObjection
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.ReviewObjection;

            /**
             * Decodes a ReviewObjection message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns ReviewObjection
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.ReviewObjection;

            /**
             * Verifies a ReviewObjection message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a ReviewObjection message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns ReviewObjection
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.ReviewObjection;

            /**
             * Creates a plain object from a ReviewObjection message. Also converts values to other types if specified.
             * @param m ReviewObjection
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.ReviewObjection, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReviewObjection to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for ReviewObjection
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a TaskBundle. */
        interface ITaskBundle {

            /** TaskBundle changeRequestId */
            changeRequestId?: (string|null);

            /** TaskBundle repo */
            repo?: (farm.v1.IRepoRef|null);

            /** TaskBundle tasks */
            tasks?: (farm.v1.ICodingTask[]|null);

            /** TaskBundle planningError */
            planningError?: (string|null);

            /** TaskBundle planning */
            planning?: (farm.v1.IModelUsage|null);
        }

        /** Represents a TaskBundle. */
        class TaskBundle implements ITaskBundle {

            /**
             * Constructs a new TaskBundle.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.ITaskBundle);

            /** TaskBundle changeRequestId. */
            public changeRequestId: string;

            /** TaskBundle repo. */
            public repo?: (farm.v1.IRepoRef|null);

            /** TaskBundle tasks. */
            public tasks: farm.v1.ICodingTask[];

            /** TaskBundle planningError. */
            public planningError: string;

            /** TaskBundle planning. */
            public planning?: (farm.v1.IModelUsage|null);

            /**
             * Creates a new TaskBundle instance using the specified properties.
             * @param [properties] Properties to set
             * @returns TaskBundle instance
             */
            public static create(properties?: farm.v1.ITaskBundle): farm.v1.TaskBundle;

            /**
             * Encodes the specified TaskBundle message. Does not implicitly {@link farm.v1.TaskBundle.verify|verify} messages.
             * @param m TaskBundle message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.ITaskBundle, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified TaskBundle message, length delimited. Does not implicitly {@link farm.v1.TaskBundle.verify|verify} messages.
             * @param message TaskBundle message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.ITaskBundle, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a TaskBundle message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns TaskBundle
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.TaskBundle;

            /**
             * Decodes a TaskBundle message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns TaskBundle
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.TaskBundle;

            /**
             * Verifies a TaskBundle message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a TaskBundle message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns TaskBundle
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.TaskBundle;

            /**
             * Creates a plain object from a TaskBundle message. Also converts values to other types if specified.
             * @param m TaskBundle
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.TaskBundle, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this TaskBundle to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for TaskBundle
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a TokenUsage. */
        interface ITokenUsage {

            /** TokenUsage promptTokens */
            promptTokens?: (number|null);

            /** TokenUsage completionTokens */
            completionTokens?: (number|null);

            /** TokenUsage totalTokens */
            totalTokens?: (number|null);

            /** TokenUsage cachedInputTokens */
            cachedInputTokens?: (number|null);
        }

        /** Represents a TokenUsage. */
        class TokenUsage implements ITokenUsage {

            /**
             * Constructs a new TokenUsage.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.ITokenUsage);

            /** TokenUsage promptTokens. */
            public promptTokens: number;

            /** TokenUsage completionTokens. */
            public completionTokens: number;

            /** TokenUsage totalTokens. */
            public totalTokens: number;

            /** TokenUsage cachedInputTokens. */
            public cachedInputTokens: number;

            /**
             * Creates a new TokenUsage instance using the specified properties.
             * @param [properties] Properties to set
             * @returns TokenUsage instance
             */
            public static create(properties?: farm.v1.ITokenUsage): farm.v1.TokenUsage;

            /**
             * Encodes the specified TokenUsage message. Does not implicitly {@link farm.v1.TokenUsage.verify|verify} messages.
             * @param m TokenUsage message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.ITokenUsage, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified TokenUsage message, length delimited. Does not implicitly {@link farm.v1.TokenUsage.verify|verify} messages.
             * @param message TokenUsage message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.ITokenUsage, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a TokenUsage message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns TokenUsage
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.TokenUsage;

            /**
             * Decodes a TokenUsage message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns TokenUsage
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.TokenUsage;

            /**
             * Verifies a TokenUsage message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a TokenUsage message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns TokenUsage
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.TokenUsage;

            /**
             * Creates a plain object from a TokenUsage message. Also converts values to other types if specified.
             * @param m TokenUsage
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.TokenUsage, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this TokenUsage to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for TokenUsage
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a StepDuration. */
        interface IStepDuration {

            /** StepDuration step */
            step?: (string|null);

            /** StepDuration attempt */
            attempt?: (number|null);

            /** StepDuration seconds */
            seconds?: (number|null);
        }

        /** Represents a StepDuration. */
        class StepDuration implements IStepDuration {

            /**
             * Constructs a new StepDuration.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IStepDuration);

            /** StepDuration step. */
            public step: string;

            /** StepDuration attempt. */
            public attempt: number;

            /** StepDuration seconds. */
            public seconds: number;

            /**
             * Creates a new StepDuration instance using the specified properties.
             * @param [properties] Properties to set
             * @returns StepDuration instance
             */
            public static create(properties?: farm.v1.IStepDuration): farm.v1.StepDuration;

            /**
             * Encodes the specified StepDuration message. Does not implicitly {@link farm.v1.StepDuration.verify|verify} messages.
             * @param m StepDuration message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IStepDuration, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified StepDuration message, length delimited. Does not implicitly {@link farm.v1.StepDuration.verify|verify} messages.
             * @param message StepDuration message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IStepDuration, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a StepDuration message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns StepDuration
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.StepDuration;

            /**
             * Decodes a StepDuration message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns StepDuration
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.StepDuration;

            /**
             * Verifies a StepDuration message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a StepDuration message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns StepDuration
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.StepDuration;

            /**
             * Creates a plain object from a StepDuration message. Also converts values to other types if specified.
             * @param m StepDuration
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.StepDuration, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this StepDuration to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for StepDuration
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** FailedStep enum. */
        enum FailedStep {
            FAILED_STEP_UNSPECIFIED = 0,
            STEP_CLONE = 1,
            STEP_LLM = 2,
            STEP_CHECK = 3,
            STEP_COMMIT = 4,
            STEP_BRANCH = 5,
            STEP_CLAIM = 6,
            STEP_PUSH = 7,
            STEP_BUDGET = 8,
            STEP_REVIEW = 9,
            STEP_ATTEMPTS = 10,
            STEP_AGENT = 11,
            STEP_AGENT_DIED = 12,
            STEP_DEADLINE = 13,
            STEP_COST_CAP = 14,
            STEP_LAUNCH = 15,
            STEP_VERIFY = 16,
            STEP_BUDGET_ENVIRONMENT = 17
        }

        /** Properties of a VerifiedCheck. */
        interface IVerifiedCheck {

            /** VerifiedCheck name */
            name?: (string|null);

            /** VerifiedCheck run */
            run?: (string|null);

            /** VerifiedCheck ok */
            ok?: (boolean|null);

            /** VerifiedCheck skipped */
            skipped?: (boolean|null);

            /** VerifiedCheck foundNothing */
            foundNothing?: (boolean|null);

            /** VerifiedCheck reason */
            reason?: (string|null);
        }

        /** Represents a VerifiedCheck. */
        class VerifiedCheck implements IVerifiedCheck {

            /**
             * Constructs a new VerifiedCheck.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IVerifiedCheck);

            /** VerifiedCheck name. */
            public name: string;

            /** VerifiedCheck run. */
            public run: string;

            /** VerifiedCheck ok. */
            public ok: boolean;

            /** VerifiedCheck skipped. */
            public skipped: boolean;

            /** VerifiedCheck foundNothing. */
            public foundNothing: boolean;

            /** VerifiedCheck reason. */
            public reason: string;

            /**
             * Creates a new VerifiedCheck instance using the specified properties.
             * @param [properties] Properties to set
             * @returns VerifiedCheck instance
             */
            public static create(properties?: farm.v1.IVerifiedCheck): farm.v1.VerifiedCheck;

            /**
             * Encodes the specified VerifiedCheck message. Does not implicitly {@link farm.v1.VerifiedCheck.verify|verify} messages.
             * @param m VerifiedCheck message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IVerifiedCheck, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified VerifiedCheck message, length delimited. Does not implicitly {@link farm.v1.VerifiedCheck.verify|verify} messages.
             * @param message VerifiedCheck message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IVerifiedCheck, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a VerifiedCheck message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns VerifiedCheck
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.VerifiedCheck;

            /**
             * Decodes a VerifiedCheck message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns VerifiedCheck
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.VerifiedCheck;

            /**
             * Verifies a VerifiedCheck message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a VerifiedCheck message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns VerifiedCheck
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.VerifiedCheck;

            /**
             * Creates a plain object from a VerifiedCheck message. Also converts values to other types if specified.
             * @param m VerifiedCheck
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.VerifiedCheck, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this VerifiedCheck to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for VerifiedCheck
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** TestRunOutcome enum. */
        enum TestRunOutcome {
            TEST_RUN_OUTCOME_UNSPECIFIED = 0,
            TEST_RUN_PASSED = 1,
            TEST_RUN_FAILED = 2,
            TEST_RUN_NOT_RUN = 3
        }

        /** Properties of a Differential. */
        interface IDifferential {

            /** Differential testFiles */
            testFiles?: (string[]|null);

            /** Differential command */
            command?: (string|null);

            /** Differential narrowed */
            narrowed?: (boolean|null);

            /** Differential base */
            base?: (farm.v1.TestRunOutcome|null);

            /** Differential branch */
            branch?: (farm.v1.TestRunOutcome|null);

            /** Differential reason */
            reason?: (string|null);
        }

        /** Represents a Differential. */
        class Differential implements IDifferential {

            /**
             * Constructs a new Differential.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IDifferential);

            /** Differential testFiles. */
            public testFiles: string[];

            /** Differential command. */
            public command: string;

            /** Differential narrowed. */
            public narrowed: boolean;

            /** Differential base. */
            public base: farm.v1.TestRunOutcome;

            /** Differential branch. */
            public branch: farm.v1.TestRunOutcome;

            /** Differential reason. */
            public reason: string;

            /**
             * Creates a new Differential instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Differential instance
             */
            public static create(properties?: farm.v1.IDifferential): farm.v1.Differential;

            /**
             * Encodes the specified Differential message. Does not implicitly {@link farm.v1.Differential.verify|verify} messages.
             * @param m Differential message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IDifferential, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Differential message, length delimited. Does not implicitly {@link farm.v1.Differential.verify|verify} messages.
             * @param message Differential message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IDifferential, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Differential message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns Differential
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.Differential;

            /**
             * Decodes a Differential message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns Differential
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.Differential;

            /**
             * Verifies a Differential message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a Differential message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns Differential
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.Differential;

            /**
             * Creates a plain object from a Differential message. Also converts values to other types if specified.
             * @param m Differential
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.Differential, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Differential to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for Differential
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a Verification. */
        interface IVerification {

            /** Verification checks */
            checks?: (farm.v1.IVerifiedCheck[]|null);

            /** Verification differential */
            differential?: (farm.v1.IDifferential|null);

            /** Verification testsOnly */
            testsOnly?: (boolean|null);

            /** Verification unverifiedReason */
            unverifiedReason?: (string|null);

            /** Verification acceptedByReviewer */
            acceptedByReviewer?: (boolean|null);

            /** Verification treeSha */
            treeSha?: (string|null);
        }

        /** Represents a Verification. */
        class Verification implements IVerification {

            /**
             * Constructs a new Verification.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IVerification);

            /** Verification checks. */
            public checks: farm.v1.IVerifiedCheck[];

            /** Verification differential. */
            public differential?: (farm.v1.IDifferential|null);

            /** Verification testsOnly. */
            public testsOnly: boolean;

            /** Verification unverifiedReason. */
            public unverifiedReason: string;

            /** Verification acceptedByReviewer. */
            public acceptedByReviewer: boolean;

            /** Verification treeSha. */
            public treeSha: string;

            /**
             * Creates a new Verification instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Verification instance
             */
            public static create(properties?: farm.v1.IVerification): farm.v1.Verification;

            /**
             * Encodes the specified Verification message. Does not implicitly {@link farm.v1.Verification.verify|verify} messages.
             * @param m Verification message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IVerification, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Verification message, length delimited. Does not implicitly {@link farm.v1.Verification.verify|verify} messages.
             * @param message Verification message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IVerification, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Verification message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns Verification
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.Verification;

            /**
             * Decodes a Verification message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns Verification
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.Verification;

            /**
             * Verifies a Verification message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a Verification message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns Verification
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.Verification;

            /**
             * Creates a plain object from a Verification message. Also converts values to other types if specified.
             * @param m Verification
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.Verification, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Verification to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for Verification
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a CommitResult. */
        interface ICommitResult {

            /** CommitResult taskId */
            taskId?: (string|null);

            /** CommitResult commitSha */
            commitSha?: (string|null);

            /** CommitResult status */
            status?: (farm.v1.CommitStatus|null);

            /** CommitResult branchName */
            branchName?: (string|null);

            /** CommitResult notes */
            notes?: (string[]|null);

            /** CommitResult changeRequestId */
            changeRequestId?: (string|null);

            /** CommitResult attempts */
            attempts?: (number|null);

            /** CommitResult tokenUsage */
            tokenUsage?: (farm.v1.ITokenUsage|null);

            /** CommitResult stepDurations */
            stepDurations?: (farm.v1.IStepDuration[]|null);

            /** CommitResult failedStep */
            failedStep?: (farm.v1.FailedStep|null);

            /** CommitResult dispatch */
            dispatch?: (number|null);

            /** CommitResult costUsd */
            costUsd?: (number|null);

            /** CommitResult model */
            model?: (string|null);

            /** CommitResult steps */
            steps?: (number|null);

            /** CommitResult strategy */
            strategy?: (farm.v1.AgentStrategy|null);

            /** CommitResult lesson */
            lesson?: (farm.v1.ILesson|null);

            /** CommitResult reviews */
            reviews?: (farm.v1.IReviewVerdict[]|null);

            /** CommitResult report */
            report?: (farm.v1.ITaskReport|null);

            /** CommitResult verification */
            verification?: (farm.v1.IVerification|null);

            /** CommitResult agentMetrics */
            agentMetrics?: (farm.v1.IMetricSample[]|null);
        }

        /** Represents a CommitResult. */
        class CommitResult implements ICommitResult {

            /**
             * Constructs a new CommitResult.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.ICommitResult);

            /** CommitResult taskId. */
            public taskId: string;

            /** CommitResult commitSha. */
            public commitSha: string;

            /** CommitResult status. */
            public status: farm.v1.CommitStatus;

            /** CommitResult branchName. */
            public branchName: string;

            /** CommitResult notes. */
            public notes: string[];

            /** CommitResult changeRequestId. */
            public changeRequestId: string;

            /** CommitResult attempts. */
            public attempts: number;

            /** CommitResult tokenUsage. */
            public tokenUsage?: (farm.v1.ITokenUsage|null);

            /** CommitResult stepDurations. */
            public stepDurations: farm.v1.IStepDuration[];

            /** CommitResult failedStep. */
            public failedStep: farm.v1.FailedStep;

            /** CommitResult dispatch. */
            public dispatch: number;

            /** CommitResult costUsd. */
            public costUsd: number;

            /** CommitResult model. */
            public model: string;

            /** CommitResult steps. */
            public steps: number;

            /** CommitResult strategy. */
            public strategy: farm.v1.AgentStrategy;

            /** CommitResult lesson. */
            public lesson?: (farm.v1.ILesson|null);

            /** CommitResult reviews. */
            public reviews: farm.v1.IReviewVerdict[];

            /** CommitResult report. */
            public report?: (farm.v1.ITaskReport|null);

            /** CommitResult verification. */
            public verification?: (farm.v1.IVerification|null);

            /** CommitResult agentMetrics. */
            public agentMetrics: farm.v1.IMetricSample[];

            /**
             * Creates a new CommitResult instance using the specified properties.
             * @param [properties] Properties to set
             * @returns CommitResult instance
             */
            public static create(properties?: farm.v1.ICommitResult): farm.v1.CommitResult;

            /**
             * Encodes the specified CommitResult message. Does not implicitly {@link farm.v1.CommitResult.verify|verify} messages.
             * @param m CommitResult message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.ICommitResult, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified CommitResult message, length delimited. Does not implicitly {@link farm.v1.CommitResult.verify|verify} messages.
             * @param message CommitResult message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.ICommitResult, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a CommitResult message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns CommitResult
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.CommitResult;

            /**
             * Decodes a CommitResult message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns CommitResult
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.CommitResult;

            /**
             * Verifies a CommitResult message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a CommitResult message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns CommitResult
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.CommitResult;

            /**
             * Creates a plain object from a CommitResult message. Also converts values to other types if specified.
             * @param m CommitResult
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.CommitResult, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this CommitResult to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for CommitResult
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a MetricSample. */
        interface IMetricSample {

            /** MetricSample name */
            name?: (string|null);

            /** MetricSample labels */
            labels?: ({ [k: string]: string }|null);

            /** MetricSample value */
            value?: (number|null);
        }

        /** Represents a MetricSample. */
        class MetricSample implements IMetricSample {

            /**
             * Constructs a new MetricSample.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IMetricSample);

            /** MetricSample name. */
            public name: string;

            /** MetricSample labels. */
            public labels: { [k: string]: string };

            /** MetricSample value. */
            public value: number;

            /**
             * Creates a new MetricSample instance using the specified properties.
             * @param [properties] Properties to set
             * @returns MetricSample instance
             */
            public static create(properties?: farm.v1.IMetricSample): farm.v1.MetricSample;

            /**
             * Encodes the specified MetricSample message. Does not implicitly {@link farm.v1.MetricSample.verify|verify} messages.
             * @param m MetricSample message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IMetricSample, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified MetricSample message, length delimited. Does not implicitly {@link farm.v1.MetricSample.verify|verify} messages.
             * @param message MetricSample message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IMetricSample, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a MetricSample message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns MetricSample
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.MetricSample;

            /**
             * Decodes a MetricSample message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns MetricSample
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.MetricSample;

            /**
             * Verifies a MetricSample message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a MetricSample message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns MetricSample
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.MetricSample;

            /**
             * Creates a plain object from a MetricSample message. Also converts values to other types if specified.
             * @param m MetricSample
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.MetricSample, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this MetricSample to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for MetricSample
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a TaskReport. */
        interface ITaskReport {

            /** TaskReport trajectory */
            trajectory?: (string[]|null);

            /** TaskReport trajectoryOmitted */
            trajectoryOmitted?: (number|null);

            /** TaskReport diff */
            diff?: (string|null);

            /** TaskReport diffTruncated */
            diffTruncated?: (boolean|null);
        }

        /** Represents a TaskReport. */
        class TaskReport implements ITaskReport {

            /**
             * Constructs a new TaskReport.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.ITaskReport);

            /** TaskReport trajectory. */
            public trajectory: string[];

            /** TaskReport trajectoryOmitted. */
            public trajectoryOmitted: number;

            /** TaskReport diff. */
            public diff: string;

            /** TaskReport diffTruncated. */
            public diffTruncated: boolean;

            /**
             * Creates a new TaskReport instance using the specified properties.
             * @param [properties] Properties to set
             * @returns TaskReport instance
             */
            public static create(properties?: farm.v1.ITaskReport): farm.v1.TaskReport;

            /**
             * Encodes the specified TaskReport message. Does not implicitly {@link farm.v1.TaskReport.verify|verify} messages.
             * @param m TaskReport message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.ITaskReport, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified TaskReport message, length delimited. Does not implicitly {@link farm.v1.TaskReport.verify|verify} messages.
             * @param message TaskReport message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.ITaskReport, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a TaskReport message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns TaskReport
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.TaskReport;

            /**
             * Decodes a TaskReport message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns TaskReport
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.TaskReport;

            /**
             * Verifies a TaskReport message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a TaskReport message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns TaskReport
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.TaskReport;

            /**
             * Creates a plain object from a TaskReport message. Also converts values to other types if specified.
             * @param m TaskReport
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.TaskReport, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this TaskReport to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for TaskReport
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a TaskStep. */
        interface ITaskStep {

            /** TaskStep changeRequestId */
            changeRequestId?: (string|null);

            /** TaskStep taskId */
            taskId?: (string|null);

            /** TaskStep dispatch */
            dispatch?: (number|null);

            /** TaskStep runId */
            runId?: (string|null);

            /** TaskStep seq */
            seq?: (number|null);

            /** TaskStep line */
            line?: (string|null);
        }

        /** Represents a TaskStep. */
        class TaskStep implements ITaskStep {

            /**
             * Constructs a new TaskStep.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.ITaskStep);

            /** TaskStep changeRequestId. */
            public changeRequestId: string;

            /** TaskStep taskId. */
            public taskId: string;

            /** TaskStep dispatch. */
            public dispatch: number;

            /** TaskStep runId. */
            public runId: string;

            /** TaskStep seq. */
            public seq: number;

            /** TaskStep line. */
            public line: string;

            /**
             * Creates a new TaskStep instance using the specified properties.
             * @param [properties] Properties to set
             * @returns TaskStep instance
             */
            public static create(properties?: farm.v1.ITaskStep): farm.v1.TaskStep;

            /**
             * Encodes the specified TaskStep message. Does not implicitly {@link farm.v1.TaskStep.verify|verify} messages.
             * @param m TaskStep message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.ITaskStep, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified TaskStep message, length delimited. Does not implicitly {@link farm.v1.TaskStep.verify|verify} messages.
             * @param message TaskStep message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.ITaskStep, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a TaskStep message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns TaskStep
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.TaskStep;

            /**
             * Decodes a TaskStep message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns TaskStep
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.TaskStep;

            /**
             * Verifies a TaskStep message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a TaskStep message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns TaskStep
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.TaskStep;

            /**
             * Creates a plain object from a TaskStep message. Also converts values to other types if specified.
             * @param m TaskStep
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.TaskStep, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this TaskStep to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for TaskStep
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a PlanItem. */
        interface IPlanItem {

            /** PlanItem itemId */
            itemId?: (string|null);

            /** PlanItem goal */
            goal?: (string|null);

            /** PlanItem kind */
            kind?: (farm.v1.TaskKind|null);

            /** PlanItem pathHints */
            pathHints?: (string[]|null);

            /** PlanItem symbolHints */
            symbolHints?: (string[]|null);

            /** PlanItem dependsOn */
            dependsOn?: (string[]|null);

            /** PlanItem estimatedChangedLines */
            estimatedChangedLines?: (number|null);
        }

        /** Represents a PlanItem. */
        class PlanItem implements IPlanItem {

            /**
             * Constructs a new PlanItem.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IPlanItem);

            /** PlanItem itemId. */
            public itemId: string;

            /** PlanItem goal. */
            public goal: string;

            /** PlanItem kind. */
            public kind: farm.v1.TaskKind;

            /** PlanItem pathHints. */
            public pathHints: string[];

            /** PlanItem symbolHints. */
            public symbolHints: string[];

            /** PlanItem dependsOn. */
            public dependsOn: string[];

            /** PlanItem estimatedChangedLines. */
            public estimatedChangedLines: number;

            /**
             * Creates a new PlanItem instance using the specified properties.
             * @param [properties] Properties to set
             * @returns PlanItem instance
             */
            public static create(properties?: farm.v1.IPlanItem): farm.v1.PlanItem;

            /**
             * Encodes the specified PlanItem message. Does not implicitly {@link farm.v1.PlanItem.verify|verify} messages.
             * @param m PlanItem message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IPlanItem, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified PlanItem message, length delimited. Does not implicitly {@link farm.v1.PlanItem.verify|verify} messages.
             * @param message PlanItem message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IPlanItem, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a PlanItem message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns PlanItem
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.PlanItem;

            /**
             * Decodes a PlanItem message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns PlanItem
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.PlanItem;

            /**
             * Verifies a PlanItem message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a PlanItem message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns PlanItem
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.PlanItem;

            /**
             * Creates a plain object from a PlanItem message. Also converts values to other types if specified.
             * @param m PlanItem
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.PlanItem, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this PlanItem to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for PlanItem
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }

        /** Properties of a Plan. */
        interface IPlan {

            /** Plan changeRequestId */
            changeRequestId?: (string|null);

            /** Plan repo */
            repo?: (farm.v1.IRepoRef|null);

            /** Plan items */
            items?: (farm.v1.IPlanItem[]|null);

            /** Plan notes */
            notes?: (string[]|null);

            /** Plan checkCommand */
            checkCommand?: (string|null);

            /** Plan planning */
            planning?: (farm.v1.IModelUsage|null);
        }

        /** Represents a Plan. */
        class Plan implements IPlan {

            /**
             * Constructs a new Plan.
             * @param [p] Properties to set
             */
            constructor(p?: farm.v1.IPlan);

            /** Plan changeRequestId. */
            public changeRequestId: string;

            /** Plan repo. */
            public repo?: (farm.v1.IRepoRef|null);

            /** Plan items. */
            public items: farm.v1.IPlanItem[];

            /** Plan notes. */
            public notes: string[];

            /** Plan checkCommand. */
            public checkCommand: string;

            /** Plan planning. */
            public planning?: (farm.v1.IModelUsage|null);

            /**
             * Creates a new Plan instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Plan instance
             */
            public static create(properties?: farm.v1.IPlan): farm.v1.Plan;

            /**
             * Encodes the specified Plan message. Does not implicitly {@link farm.v1.Plan.verify|verify} messages.
             * @param m Plan message or plain object to encode
             * @param [w] Writer to encode to
             * @returns Writer
             */
            public static encode(m: farm.v1.IPlan, w?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Plan message, length delimited. Does not implicitly {@link farm.v1.Plan.verify|verify} messages.
             * @param message Plan message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            public static encodeDelimited(message: farm.v1.IPlan, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Plan message from the specified reader or buffer.
             * @param r Reader or buffer to decode from
             * @param [l] Message length if known beforehand
             * @returns Plan
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decode(r: ($protobuf.Reader|Uint8Array), l?: number): farm.v1.Plan;

            /**
             * Decodes a Plan message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns Plan
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            public static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): farm.v1.Plan;

            /**
             * Verifies a Plan message.
             * @param m Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            public static verify(m: { [k: string]: any }): (string|null);

            /**
             * Creates a Plan message from a plain object. Also converts values to their respective internal types.
             * @param d Plain object
             * @returns Plan
             */
            public static fromObject(d: { [k: string]: any }): farm.v1.Plan;

            /**
             * Creates a plain object from a Plan message. Also converts values to other types if specified.
             * @param m Plan
             * @param [o] Conversion options
             * @returns Plain object
             */
            public static toObject(m: farm.v1.Plan, o?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Plan to JSON.
             * @returns JSON object
             */
            public toJSON(): { [k: string]: any };

            /**
             * Gets the default type url for Plan
             * @param [typeUrlPrefix] your custom typeUrlPrefix(default "type.googleapis.com")
             * @returns The default type url
             */
            public static getTypeUrl(typeUrlPrefix?: string): string;
        }
    }
}

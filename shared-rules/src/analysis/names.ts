/**
 * Naming conventions of PyTorch code that the analysis treats as evidence. Each pattern is a guess about
 * code we have not read, so each one is narrow and documented here, in one place.
 */
import { isWordCharacter } from "./scopes";

/** Variables that usually hold an `nn.Module` (calling one runs a forward pass on its device). */
export const MODULE_NAME = /^(?!_*(load|get|build|create|make|setup|prepare|instantiate|construct|convert|save|export|download|wrap|unwrap|freeze|print|count)_)(?:(model|net|network|module|backbone|encoder|decoder|denoiser|unet|generator|discriminator|critic|actor|policy|teacher|student|classifier|head|ddp_model|raw_model|unwrapped_model|ema|ema_model|model_ema|criterion|loss_fn|loss_func|loss_function|lossfn)$|.*(_model|_net|_unet|_denoiser|_criterion|_loss_fn)$)/i;

/** Iterables that yield training or evaluation batches. */
export const DATA_ITERABLE_NAME = /(loader|dataloader|dataset|(?<!(num|n|nb|max|min|total)_)batches|data_iter|dataiter|batch_iter|train_data|val_data|valid_data|test_data|eval_data|prefetcher)$|^(loader|dataloader|dataset|batches|data|ds)$|^(train|val|valid|test|eval)_?(loader|ds|set|iter|iterator)$/i;

/** Loop bounds that count optimisation steps rather than items (`steps_per_epoch` counts steps too). */
export const STEP_COUNT_NAME = /(step|iter|iteration|batch)(e?s)?$|^(num|n|max|total)_?(steps|iters|iterations|batches|updates)$|^(steps|iters|iterations|updates)|(steps|iters|iterations|batches|updates)_?per_?epoch$/i;

/**
 * Iteration counts of a numerical method (`nmb_kmeans_iters`, `sinkhorn_iterations`, `power_iters`): its loop
 * refines one result, it does not count training steps (it is as hot as the function it runs in).
 */
export const SOLVER_ITERATION_NAME = /k_?means|sinkhorn|power_?it|newton|lbfgs|lanczos|solver/i;

/** Functions that by name run a loop of model steps (`p_sample_loop`, `ddim_sample_loop`, `calc_bpd_loop`). */
export const LOOP_FUNCTION_NAME = /_loop$/;

/** Loop variables and bounds that count epochs (not `steps_per_epoch`, a count of steps). */
export const EPOCH_NAME = /(?<!per_?)epoch/i;

/** Counters that periodic guards test (`step`, `i`, `batch_idx`, `self.global_step`). */
export const COUNTER_NAME = /^(i|j|k|n|t|it|itr|idx|step|steps|iter|iters|iteration|global_step|batch_idx|batch_i|batch_num|batch_nb|num_updates|update|updates|count|counter|epoch)$|(step|iter|iteration|idx|index|count|tick|_i|_num|_nb)$/i;

/**
 * Divisors of a modulo and loop bounds that count micro-batches of gradient accumulation (`accum_steps`,
 * `gradient_accumulation_steps`, `accumulate_grad_batches`, `split_microbatches(...)`): `i % accum == 0` holds
 * once per optimizer step.
 */
export const ACCUMULATION_NAME = /accum|micro_?batch/i;

/** Booleans that by name say "this is the log/eval/last step" (or "training is done"). */
export const PERIODIC_FLAG_NAME = /^(done|finished)$|^(is_)?(last|final)(_step|_iter|_batch)?$|^should_(update_)?(log|logs|eval|evaluate|save|print|report|sync|checkpoint)|^(do|need)_(log|eval|save|print)|_(log|eval|save|print|checkpoint)_(step|iter|iteration)$|^is_(log|eval|save|print|logging|checkpoint)_(step|iter|iteration)$|^(log|eval|save|print)_(now|step|this_step)$/i;

/** Clock reads: `time.time()`, `time.monotonic()`, `time.perf_counter()`, `datetime.now()`, `timeit.default_timer()`. */
/**
 * Functions that time a model (pycls's `compute_time_eval`, YOLOv7's `profile`, `benchmark_model`): they sync on
 * purpose, so that the clock measures the GPU's work, and run apart from training.
 */
export const SPEED_MEASUREMENT_NAME = /^_*(benchmark|bench|profile|timeit|measure|speed_test|compute_time|time_(model|net|forward|inference|eval|train))(_|$)|_(benchmark|bench|profile|profiling|latency|throughput|speed|timing)$/i;

/** A function that loads or converts a model's weights once (`load_pretrained_model`, `init_weights`, `convert_checkpoint`). */
export const WEIGHT_LOADING_NAME = /^_*(load|init|initialize|convert|transfer|port|restore|copy)_(\w+_)?(weights?|pretrained(_\w+)?|checkpoints?|ckpt|state_dict|params|parameters)$/i;

export const CLOCK_FUNCTION = /^(time\.)?(time|monotonic|perf_counter)(_ns)?$|^(datetime\.)?datetime\.now$|^(timeit\.)?default_timer$/;

/** Variables holding the current time (`now = time.monotonic()`), and seconds since a kept time. */
export const CLOCK_READING_NAME = /^(now|current_time|cur_time|time_now|now_time|t_now)$/i;
/** A span of time between periodic actions: `eval_every_seconds`, `log_interval_secs`, `save_every_minutes`. */
export const TIME_INTERVAL_NAME = /(every|interval|period|freq|frequency)_?(seconds|secs|sec|minutes|mins|hours)$/i;
export const ELAPSED_TIME_NAME = /^(elapsed|elapsed_time|time_elapsed|elapsed_seconds|seconds_elapsed)$|^(time|seconds|secs)_since_/i;

/** Receivers of `.step()` that are optimisers (a scheduler's `.step()` is not a training step). */
export const OPTIMIZER_NAME = /optim|^opt$|^opt_|_opt$|scaler/i;

/** Integer indices by name (`idx_train`, `indices`, `batch_index`, `perm`): not boolean masks, whatever a parameter they are passed for is named. */
export const INDEX_NAME = /(^|_)(idx|index|indices|inds|perm)(_|$)|idx$|^(idx|index|indices|perm)/i;

/** Boolean masks (`mask`, `keep`, `valid`, `is_pad`), used only together with tensor evidence. */
export const MASK_NAME = /mask|^keep|^valid|^is_|^has_|^sel(ect(ed)?)?$|^pos(itive)?s?$|^neg(ative)?s?$/i;

/**
 * Parameters that switch behaviour on or off (`use_cache=None`, `return_dict=None`, Hugging Face's
 * `output_attentions=None`): with a `None` default they are Python bools, not optional tensors. Not `is_`/`has_`,
 * which also name masks.
 */
export const FLAG_PARAMETER_NAME = /^(use|return|do|enable|disable|need|skip|apply)_|^output_(attentions|hidden_states|scores)$/i;

/**
 * Parameters that frameworks pass as Python integers (Lightning's `batch_idx`, `optimizer_idx`, `dataloader_idx`,
 * `global_step`; a model's `layer_idx`), never tensors, wherever they are passed on; and epoch counts, whole or
 * fractional (SlowFast's `forward(..., epoch_exact=None)`).
 */
export const INTEGER_PARAMETER_NAME = /^(batch|optimizer|dataloader|layer|block|stage)_(idx|index)$|^global_step$|^(cur_|current_)?epoch(_exact|_float|_idx|_num)?$/;

/** Parameters named like a hyperparameter given as a Python number (`temp=None`, `temperature=1.0`, `tau`, `eps`, `lr`). */
export const HYPERPARAMETER_NAME = /^(temp|temperature|tau|eps|epsilon|momentum|dropout|drop_rate|drop_prob|lr|learning_rate|weight_decay)$/;

/** Parameters named as one size or shape (`x_size`, `window_size`, `shape`): Python ints, or tuples of them. Not `sizes`, often a tensor of them. */
export const SIZE_PARAMETER_NAME = /^(size|shape)$|_(size|shape)$/;

/** Parameters named like a string: a data split or a stage that prefixes logged keys (`split="train"`), a name or a tag. */
export const STRING_PARAMETER_NAME = /^(split|phase|stage|mode|prefix|suffix|postfix|log_prefix|tag|name)$/;

/**
 * Methods of a model that do not run it (moves, modes, weights, hooks, saving): any other method call on a
 * model (`model.generate(...)`, `model.get_intermediate_layers(x)`, `model.encode(x)`) runs a forward pass.
 */
export const MODULE_SETUP_METHOD = /^(to|cuda|cpu|half|float|double|bfloat16|type|eval|train|requires_grad_|zero_grad|apply|share_memory|(named_)?(parameters|buffers|modules|children)|state_dict|load_state_dict|register_\w+|add_module|get_(submodule|parameter|buffer|input_embeddings|output_embeddings)|resize_token_embeddings|tie_weights|gradient_checkpointing_\w+|save_pretrained|from_pretrained|push_to_hub|extra_repr|num_parameters|print_trainable_parameters|merge_and_unload|update|step|keys|values|items|get|pop|size|dim|append|extend|insert|fuse)$/;

/** Methods of `nn.Module` that return the module itself (`Agent(envs).to(device)`, `model.eval()`). */
export const RETURNS_MODULE = /^(to|cuda|cpu|train|eval|half|float|requires_grad_|bfloat16|double)$/;

/** Dicts by name (`lprobs_dict`, `state_dict`, `outputs_dict`): iterating one gives its keys. */
export const DICT_NAME = /(^|_)dict$/i;

/** The methods that hand a batch to a model with `optimize_parameters` (pix2pix/CycleGAN, BasicSR), once per step. */
export const MODEL_INPUT_METHOD = /^(set_input|feed_data)$/;
/** The class of an off-policy agent's replay buffer (`ReplayBuffer`, `ReplayMemory`, `PrioritizedBuffer`). */
export const REPLAY_BUFFER_CLASS = /Replay|Buffer|Memory/;

/** Objects that hold a script's parsed options: `args = parser.parse_args()`, `opt`, `FLAGS`. */
const OPTIONS_NAMES = ["args", "opt", "opts", "options", "flags", "FLAGS", "hparams", "cmd_args", "cli_args"];
export const OPTIONS_NAME = new RegExp(`^(${OPTIONS_NAMES.join("|")})$`);

/** An options object's attribute read in a text: `opt.` of `opt.flip`, also in `self.opt.flip`. */
export interface OptionRead {
  /** The offset of the options object's name. */
  at: number;
  /** The offset of the attribute's name, after the `.`. */
  attribute: number;
}

/**
 * The reads of an attribute of an options object in `text` (`opt.flip`, `self.args.lr`), by `indexOf` (a
 * regular expression of the names' alternation costs several times more on every file). The file's lint and its
 * links both ask: the last text's answer is kept.
 */
export function optionReads(text: string): readonly OptionRead[] {
  if (text === lastOptionReads.text) return lastOptionReads.reads;
  const reads: OptionRead[] = [];
  for (const name of OPTIONS_NAMES) {
    const dotted = `${name}.`;
    for (let at = text.indexOf(dotted); at >= 0; at = text.indexOf(dotted, at + dotted.length)) {
      if (at === 0 || !isWordCharacter(text.charCodeAt(at - 1))) reads.push({ at, attribute: at + dotted.length });
    }
  }
  lastOptionReads = { text, reads };
  return reads;
}
let lastOptionReads: { text: string; reads: readonly OptionRead[] } = { text: "", reads: [] };

/**
 * A legacy tensor type of the CPU (`torch.FloatTensor`, `"torch.LongTensor"`): `t.type(torch.FloatTensor)` of a
 * CUDA tensor copies it to host memory; `torch.cuda.FloatTensor` names a CUDA type.
 */
export const HOST_TENSOR_TYPE = /^["']?torch\.(Float|Double|Half|BFloat16|Long|Int|Short|Char|Byte|Bool)Tensor["']?$/;

/** A reinforcement-learning environment: `env`, `envs`, `train_env`, `vec_env`, `environment`. */
export const ENVIRONMENT_NAME = /^(env|envs|environment|\w+_envs?)$/i;

/** `getattr(args, "fsdp", False)`: a read of an option that some runs' options lack; group 1 is the option. */
const GETATTR_OPTION = new RegExp(`\\bgetattr\\(\\s*(?:self\\.)?(?:${OPTIONS_NAMES.join("|")})\\s*,\\s*["'](\\w+)["']`, "g");

/** The reads of options through `getattr` in `text`: where each call starts, and the option it reads. */
export function optionGetattrReads(text: string): Array<{ at: number; option: string }> {
  if (!text.includes("getattr(")) return [];
  return [...text.matchAll(GETATTR_OPTION)].map((match) => ({ at: match.index!, option: match[1] }));
}

/** `=` or an augmented assignment (`+=`, `//=`, ...), not `==`: what makes an attribute's mention a write. */
const ASSIGNMENT = "(?:[-+*/%&|^@]|//|\\*\\*|<<|>>)?=(?!=)";
const WRITE_AFTER_ATTRIBUTE = new RegExp(`(\\w+)[ \\t]*${ASSIGNMENT}`, "y");

/**
 * The attributes of options objects that `text` writes (`opt.flip = True`, `self.args.lr *= 2`), and apart (`cleared`)
 * those it only ever sets to `False` or `None` (`args.fsdp = False`, when FSDP cannot run).
 */
export function optionWrites(text: string): { written: Set<string>; cleared: Set<string> } {
  const written = new Set<string>();
  const cleared = new Set<string>();
  for (const read of optionReads(text)) {
    WRITE_AFTER_ATTRIBUTE.lastIndex = read.attribute;
    const write = WRITE_AFTER_ATTRIBUTE.exec(text);
    if (!write) continue;
    CLEARING_VALUE.lastIndex = WRITE_AFTER_ATTRIBUTE.lastIndex;
    // A plain `=` (not `+=`) of `False` or `None`.
    if (/[\w \t]=$/.test(write[0]) && CLEARING_VALUE.test(text)) cleared.add(write[1]);
    else written.add(write[1]);
  }
  for (const name of written) cleared.delete(name);
  return { written, cleared };
}
/** `False`, `None`: the values that turn an option off, as written or as an option's default (`OptionDefault.value`). */
export const OFF_LITERAL = /^(False|None)$/;
/** `= False` or `= None` and nothing more on the line: a write that turns an option off. */
const CLEARING_VALUE = /[ \t]*(False|None)[ \t]*(#[^\n]*)?(\r?\n|$)/y;

/** A text that may define argparse options (`add_argument(...)`), or a dataclass's fields as options (`tyro.cli(Args)`). */
export function mayDefineOptions(text: string): boolean {
  return text.includes("add_argument") || (text.includes("@dataclass") && /\b(cli|parse|HfArgumentParser|ArgumentParser)\(/.test(text));
}

const SETS_ANY_OPTION = new RegExp(
  `\\bsetattr\\(\\s*(?:self\\.)?(?:${OPTIONS_NAMES.join("|")})\\s*,|\\bvars\\(\\s*(?:self\\.)?(?:${OPTIONS_NAMES.join("|")})\\s*\\)\\.update\\(|\\b(?:${OPTIONS_NAMES.join("|")})\\.__dict__\\.update\\(`,
);

/** `setattr(args, key, value)`, `vars(opt).update(config)`, `args.__dict__.update(...)`: any option may be set. */
export function setsAnyOption(text: string): boolean {
  return (text.includes("setattr(") || text.includes("vars(") || text.includes("__dict__")) && SETS_ANY_OPTION.test(text);
}

const OPTION_LINE = new RegExp(`^.*(?:add_argument|default\\s*=|action\\s*=|dest\\s*=|set_defaults|setattr|["']--|\\b(?:${OPTIONS_NAMES.join("|")})\\.\\w+\\s*[-+*/|&]?=(?!=)).*$`, "gm");

/** The lines of a file that define or set its options (`add_argument(...)`, `opt.save_txt = True`): what option defaults depend on. */
export function optionLines(text: string): string {
  return text.includes("add_argument") ? (text.match(OPTION_LINE) ?? []).join("\n") : "";
}

/** Tokenizers (`tokenizer`, `self.text_tokenizer`), whose outputs are made in host memory. */
export const TOKENIZER_NAME = /tokenizer$/i;

/** Receivers of `.synchronize()` that are CUDA streams or events. */
export const STREAM_OR_EVENT_NAME = /stream|event|^(start|end|stop)(_evt|_ev)?$/i;

/** Logger objects whose `.info(...)`-style methods format their arguments. */
export const LOGGER_NAME = /^(logging|logger|log|_logger|_log|LOGGER|LOG)$|logger$/i;
export const LOGGING_METHOD = /^(debug|info|warning|warn|error|critical|exception|log)$/;

/** The last part of a dotted name: `self.train_loader` → `train_loader`. */
export function lastName(dotted: string): string {
  return dotted.slice(dotted.lastIndexOf(".") + 1);
}

/** Functions that return the device to compute on: `torch.cuda.current_device()`, `dist_util.dev()`, `get_device()`. */
export const DEVICE_GETTER = /^(get_|current_|default_)?(device|dev)$/;

/** Names for devices in `.to(device)`. */
export const DEVICE_NAME = /device|^dev$|cuda|gpu|^rank$|local_rank/i;

/** Flags and counts that hold only with a CUDA device: `cfg.NUM_GPUS`, `args.n_gpu`, `use_cuda`, `self.on_gpu`. */
export const CUDA_FLAG_NAME = /^(num_gpus?|n_gpus?|ngpus?|gpus|use_cuda|use_gpu|cuda|on_gpu|has_cuda)$/i;

/** Devices that by name are the host (`self._cpu_device`, `cpu_device`), where results are gathered. */
export const CPU_DEVICE_NAME = /^_?cpu(_device|_dev)?$/i;

/** A class's name, by Python's convention (`ComputeLoss`, `_Sampler`). */
export const CLASS_NAME = /^_*[A-Z]/;

/** A write to an attribute found in a text: `loss.autobalance = True`, `self.gr: float = g`, `x.n += 1`. */
export interface AttributeWrite {
  /** The offset of the `.` before the attribute. */
  at: number;
  attribute: string;
  /** The plain name the attribute is written on (`loss`, `self`); undefined for `losses[0].x`, `a.b.x`. */
  owner?: string;
  /** The write is in a comment (`# compute_loss.gr = ...`). */
  inComment: boolean;
}

/** The attribute writes in `text` (of `attribute` only, if given), by scanning the text: cheap enough for every keystroke. */
export function* attributeWrites(text: string, attribute = "\\w+"): Generator<AttributeWrite> {
  for (const match of text.matchAll(new RegExp(`\\.(${attribute})[ \\t]*(?::[^=\\n]*)?${ASSIGNMENT}`, "g"))) {
    const at = match.index!;
    let start = at;
    while (start > 0 && /\w/.test(text.charAt(start - 1))) start--;
    const owner = start < at && !/[\w.]/.test(text.charAt(start - 1)) ? text.slice(start, at) : undefined;
    yield { at, attribute: match[1], owner, inComment: text.slice(text.lastIndexOf("\n", at) + 1, at).includes("#") };
  }
}

/** `.cuda()`, `device`, `.to(`, a GPU (or GPUs) or an accelerator; `xla` between non-letters: `torch_xla`, `xla_device()`, not `plt.xlabel`. */
export function mentionsADevice(text: string): boolean {
  return /cuda|device|\.to\(|accelerator|\bmps\b|(^|[^a-z])xla([^a-z]|$)|\bgpus?\b/i.test(text);
}
